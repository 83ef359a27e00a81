// Type-level specification: checked by `tsc` in the type-check step; the runtime assertions keep vitest honest.
import { describe, expectTypeOf, it } from 'vitest';
import { defineTool, type ArgsOf, type ParametersSchema } from '../../src/index.js';

describe('defineTool types', () => {
  it('types arguments from a literal schema without `as const`', () => {
    const tool = defineTool({
      name: 'search',
      description: 'Search notes',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string' }, limit: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['query'],
        additionalProperties: false,
      },
      idempotent: true,
      call: (args) => {
        expectTypeOf(args.query).toEqualTypeOf<string>();
        expectTypeOf(args.limit).toEqualTypeOf<number | undefined>();
        expectTypeOf(args.tags).toEqualTypeOf<string[] | undefined>();
        return args.query.length;
      },
    });
    expectTypeOf(tool.call).parameter(0).toEqualTypeOf<{ query: string; limit?: number; tags?: string[] }>();
    expectTypeOf(tool.call).returns.toEqualTypeOf<number | Promise<number>>();
    expectTypeOf(tool.name).toBeString();
  });

  it('rejects a call that reads a property the schema does not declare', () => {
    defineTool({
      name: 'strict',
      description: 'strict',
      parameters: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'], additionalProperties: false },
      idempotent: true,
      // @ts-expect-error `b` is not in the schema
      call: (args) => args.b,
    });
    expectTypeOf<ArgsOf<{ type: 'object'; properties: { a: { type: 'boolean' } }; required: ['a'] }>>().toMatchTypeOf<{ a: boolean }>();
  });

  it('falls back to a record for a schema known only as a schema', () => {
    expectTypeOf<ArgsOf<ParametersSchema>>().toEqualTypeOf<Record<string, unknown>>();
  });

  it('requires the idempotent flag', () => {
    // @ts-expect-error `idempotent` must be stated
    defineTool({ name: 'x', description: 'x', parameters: { type: 'object' }, call: () => 1 });
  });
});
