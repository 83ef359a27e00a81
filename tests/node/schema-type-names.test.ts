// A schema whose `type` names no JSON Schema type (`int`, as other languages say it) is refused at
// registration with a message that names the allowed types and the one meant, in both validation
// modes, instead of the meta-schema's three complaints about the keyword.
import { describe, expect, it } from 'vitest';
import { defineTool, isAmbiError, type ParametersSchema, ToolRegistry } from '../../src/index.js';

const ALLOWED = 'use one of "string", "number", "integer", "boolean", "object", "array", "null"';

/** What registering a tool with these parameters throws, in a validation mode. */
function refusal(parameters: object, validation: 'auto' | 'no-eval'): Error {
  const tool = defineTool({ name: 'count', description: 'Count', parameters: parameters as ParametersSchema, idempotent: true, call: () => 1 });
  try {
    new ToolRegistry({ validation }).register(tool);
  } catch (error) {
    return error as Error;
  }
  throw new Error('registered');
}

describe.each(['auto', 'no-eval'] as const)('a type that is not one (%s)', (validation) => {
  it('names the path, the allowed types and the one meant, and nothing else', () => {
    const error = refusal({ type: 'object', properties: { n: { type: 'int' } } }, validation);
    expect(isAmbiError(error, 'invalid_tool')).toBe(true);
    expect(error.message).toBe(
      `Tool "count": invalid parameters schema: schema is invalid: /properties/n/type is "int": "int" is not a JSON Schema type; ${ALLOWED} ("integer" for "int")`,
    );
  });

  it('in a type list, and deep in an array of objects, names each', () => {
    const error = refusal(
      { type: 'object', properties: { rows: { type: 'array', items: { type: 'object', properties: { price: { type: ['float', 'null'] } } } } } },
      validation,
    );
    expect(error.message).toContain('/properties/rows/items/properties/price/type is ["float","null"]: "float" is not a JSON Schema type');
    expect(error.message).toContain('("number" for "float")');
  });

  it('a made-up name gets the allowed types without a guess; other problems are still said', () => {
    const error = refusal({ type: 'object', properties: { a: { type: 'constructor' }, b: { minLength: -1 } } }, validation);
    expect(error.message).toContain(`/properties/a/type is "constructor": "constructor" is not a JSON Schema type; ${ALLOWED},`);
    expect(error.message).not.toContain('" for "constructor"');
    expect(error.message).toContain('data/properties/b/minLength');
  });

  it('a property named "type" is a name, not the keyword', () => {
    const error = refusal({ type: 'object', properties: { type: { type: 'str' } } }, validation);
    expect(error.message).toContain('/properties/type/type is "str"');
    expect(error.message).toContain('("string" for "str")');
  });

  it('a huge list of made-up types, or a huge name, gives a message of bounded size', () => {
    const error = refusal(
      { type: 'object', properties: { a: { type: Array.from({ length: 2_000 }, (_, i) => `t${i}`) }, b: { type: 'x'.repeat(100_000) } } },
      validation,
    );
    expect(error.message).toContain('and 1995 more are not JSON Schema types');
    expect(error.message.length).toBeLessThan(2_000);
  });
});
