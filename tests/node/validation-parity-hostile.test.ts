// The parity suite (validation-parity.test.ts) on hostile ground: property names that
// Object.prototype already has, in properties, required, dependencies, defaults and
// arguments, and deep input. ajv's compiled validators and the no-eval one must agree on
// every decision, filled default and message, and neither may touch Object.prototype.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolManager, ToolRegistry, defineTool, type ToolResult } from '../../src/index.js';
import { compileAjvValidator } from '../../src/validation/ajv/ajv-validator.js';
import { compileNoEvalValidator } from '../../src/validation/no-eval/no-eval-validator.js';

/** Every name Object.prototype has (`__proto__`, `constructor`, `toString`, `valueOf`, `hasOwnProperty`, …). */
const INHERITED = Object.getOwnPropertyNames(Object.prototype);

type Case = [title: string, schemaJson: string, argumentsJson: string[]];

const props = (names: readonly string[], schema: object) => Object.fromEntries(names.map((name) => [name, schema]));
const json = (value: unknown) => JSON.stringify(value);

const cases: Case[] = [
  [
    'required names of Object.prototype',
    json({ type: 'object', required: INHERITED }),
    ['{}', json(Object.fromEntries(INHERITED.map((n) => [n, 1]))), '{"toString":1}'],
  ],
  [
    'properties named like Object.prototype members',
    json({ type: 'object', properties: props(INHERITED, { type: 'string' }) }),
    ['{}', '{"toString":"x","valueOf":"y"}', '{"toString":1,"__proto__":2,"constructor":null}', '{"hasOwnProperty":"h","isPrototypeOf":[]}'],
  ],
  [
    'those properties and additionalProperties: false',
    json({ type: 'object', properties: props(INHERITED, { type: 'number' }), additionalProperties: false }),
    ['{}', '{"__proto__":1}', '{"__proto__":"x","other":1}', '{"constructor":1,"toLocaleString":"x"}'],
  ],
  [
    '"__proto__" as the only property, with additionalProperties: false',
    json({ type: 'object', properties: { ['__proto__']: { type: 'string' } }, additionalProperties: false }),
    ['{}', '{"__proto__":"x"}', '{"__proto__":1}'],
  ],
  [
    'defaults on those names',
    json({ type: 'object', properties: props(INHERITED, { type: 'string', default: 'd' }) }),
    ['{}', '{"toString":"mine"}', '{"__proto__":"own"}'],
  ],
  [
    'a nested default under "__proto__"',
    '{"type":"object","properties":{"__proto__":{"type":"object","properties":{"polluted":{"type":"number","default":1}}}}}',
    ['{}', '{"__proto__":{}}', '{"__proto__":{"polluted":2}}', '{"__proto__":"x"}'],
  ],
  [
    'a nested default under "constructor" and "prototype"',
    '{"type":"object","properties":{"constructor":{"type":"object","properties":{"prototype":{"type":"object","properties":{"polluted":{"default":1}}}}}}}',
    ['{}', '{"constructor":{}}', '{"constructor":{"prototype":{}}}'],
  ],
  [
    'a default that holds a "__proto__" key',
    '{"type":"object","properties":{"o":{"type":"object","default":{"__proto__":{"x":1}},"required":["__proto__"]}}}',
    ['{}', '{"o":{}}'],
  ],
  [
    'dependencies on those names',
    json({ type: 'object', dependencies: { toString: ['valueOf'], a: ['constructor', '__proto__'], valueOf: { required: ['hasOwnProperty'] } } }),
    ['{}', '{"a":1}', '{"toString":1}', '{"valueOf":1}', '{"a":1,"constructor":1,"__proto__":1}', '{"valueOf":1,"hasOwnProperty":1,"toString":1}'],
  ],
  [
    'patternProperties and additionalProperties on those names',
    json({ type: 'object', properties: { a: {} }, patternProperties: { '^to': { type: 'number' } }, additionalProperties: { type: 'boolean' } }),
    ['{"toString":1,"valueOf":true}', '{"toString":"x","__proto__":1}', '{"__proto__":true,"constructor":false}'],
  ],
  [
    'propertyNames and min/maxProperties count own keys',
    json({ type: 'object', propertyNames: { maxLength: 8 }, minProperties: 1, maxProperties: 2 }),
    ['{}', '{"__proto__":1}', '{"constructor":1,"toString":2,"valueOf":3}'],
  ],
  [
    'enum and const over objects with those keys',
    json({ type: 'object', properties: { e: { enum: [{ toString: 1 }, { ['__proto__']: 1 }] }, c: { const: { valueOf: 'v' } } } }),
    ['{"e":{"toString":1},"c":{"valueOf":"v"}}', '{"e":{"__proto__":1}}', '{"e":{"toString":2},"c":{"valueOf":1}}', '{"e":{},"c":{}}'],
  ],
];

// (`{ ['__proto__']: x }`, a computed key, makes an own property; `{ __proto__: x }` would set the prototype.)

/** A result as the tool and the model would see it: JSON keeps own "__proto__" keys, toEqual compares the rest. */
const seen = (result: unknown) => JSON.stringify(result);

afterEach(() => {
  for (const name of ['polluted', 'x', 'd']) delete (Object.prototype as Record<string, unknown>)[name];
});

const members = INHERITED.map((name) => Object.getOwnPropertyDescriptor(Object.prototype, name));

/** Object.prototype has the members it had, unchanged, and no others. */
function expectUntouched(): void {
  expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(INHERITED);
  expect(INHERITED.map((name) => Object.getOwnPropertyDescriptor(Object.prototype, name))).toEqual(members);
}

describe('ajv and no-eval agree on names that Object.prototype has', () => {
  for (const [title, schemaJson, values] of cases) {
    it(title, () => {
      const ajv = compileAjvValidator(JSON.parse(schemaJson));
      const noEval = compileNoEvalValidator(JSON.parse(schemaJson));
      for (const text of values) {
        for (const owned of [true, false]) {
          const expected = ajv(JSON.parse(text), owned);
          const actual = noEval(JSON.parse(text), owned);
          expect(seen(actual), `${text} (owned: ${owned})`).toBe(seen(expected));
          expect(actual, `${text} (owned: ${owned})`).toEqual(expected);
          expectUntouched();
        }
      }
    });
  }

  it('on random arguments whose keys are those names', () => {
    const keys = fc.constantFrom(...INHERITED, 'a', 'o', 'e');
    const args = fc.dictionary(keys, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }).map((value) => JSON.stringify(value));
    for (const [title, schemaJson] of cases) {
      const ajv = compileAjvValidator(JSON.parse(schemaJson));
      const noEval = compileNoEvalValidator(JSON.parse(schemaJson));
      fc.assert(
        fc.property(args, (text) => {
          expect(seen(noEval(JSON.parse(text), true)), `${title}: ${text}`).toBe(seen(ajv(JSON.parse(text), true)));
        }),
        { numRuns: 200 },
      );
      expectUntouched();
    }
  }, 60_000);
});

describe('ajv and no-eval agree on deep input', () => {
  const recursive = '{"type":"object","properties":{"child":{"$ref":"#"},"n":{"type":"number","default":0}},"required":["n"]}';

  /** `{"child": … }` `levels` objects deep, innermost `inner`. */
  const nestedText = (levels: number, inner = '{}') => `${'{"child":'.repeat(levels - 1)}${inner}${'}'.repeat(levels - 1)}`;

  it('decides, fills and words 64 levels the same way', () => {
    const ajv = compileAjvValidator(JSON.parse(recursive));
    const noEval = compileNoEvalValidator(JSON.parse(recursive));
    for (const text of [nestedText(64), nestedText(64, '{"n":"x"}'), nestedText(63, '{"child":{"child":1}}')]) {
      for (const owned of [true, false]) expect(seen(noEval(JSON.parse(text), owned))).toBe(seen(ajv(JSON.parse(text), owned)));
    }
  });

  it('refuses the same deeper arguments in both modes, as too deep', async () => {
    const results = async (validation: 'auto' | 'no-eval') => {
      const tool = defineTool({ name: 'deep', description: 'x', parameters: JSON.parse(recursive), idempotent: true, call: () => 'ran' });
      const manager = new ToolManager(new ToolRegistry({ validation }).register(tool));
      const outcomes: unknown[] = [];
      for (const levels of [64, 65, 300, 20_000]) {
        const result: ToolResult = await manager.execute({ id: 'c', name: 'deep', arguments: nestedText(levels) });
        outcomes.push(result.ok ? result.output : result.error);
      }
      return outcomes;
    };
    const auto = await results('auto');
    expect(await results('no-eval')).toEqual(auto);
    const tooDeep = { code: 'invalid_arguments', message: 'Invalid arguments for "deep": arguments must NOT be nested more than 64 levels deep' };
    expect(auto).toEqual(['ran', tooDeep, tooDeep, tooDeep]);
  });
});
