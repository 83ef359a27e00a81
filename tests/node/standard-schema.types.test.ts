// Type-level specification: checked by `tsc` in the type-check step; the runtime assertions keep vitest honest.
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineTool, type ArgsOf, type StandardSchemaV1, type Tool } from '../../src/index.js';

describe('argument types from a zod schema', () => {
  it('types arguments with the output type of the schema', () => {
    const tool = defineTool({
      name: 'search',
      description: 'Search notes',
      parameters: z.object({ query: z.string(), limit: z.number().int().optional(), tags: z.array(z.string()) }),
      idempotent: true,
      call: (args) => {
        expectTypeOf(args.query).toEqualTypeOf<string>();
        expectTypeOf(args.limit).toEqualTypeOf<number | undefined>();
        expectTypeOf(args.tags).toEqualTypeOf<string[]>();
        return args.tags.length;
      },
    });
    expectTypeOf(tool).toEqualTypeOf<Tool<{ query: string; limit?: number | undefined; tags: string[] }, number>>();
  });

  it('sees transforms and defaults as the call sees them: after parsing', () => {
    defineTool({
      name: 'shaped',
      description: 'x',
      parameters: z.object({ csv: z.string().transform((s) => s.split(',')), page: z.number().default(1), when: z.iso.date().transform((s) => new Date(s)) }),
      idempotent: true,
      needsApproval: (args) => {
        expectTypeOf(args.csv).toEqualTypeOf<string[]>();
        return args.page > 1;
      },
      call: (args) => {
        expectTypeOf(args.csv).toEqualTypeOf<string[]>();
        expectTypeOf(args.page).toEqualTypeOf<number>();
        expectTypeOf(args.when).toEqualTypeOf<Date>();
        return null;
      },
    });
    expectTypeOf<ArgsOf<z.ZodObject<{ n: z.ZodDefault<z.ZodNumber> }>>>().toEqualTypeOf<{ n: number }>();
  });

  it('rejects reading a property the schema does not declare', () => {
    defineTool({
      name: 'strict',
      description: 'strict',
      parameters: z.object({ a: z.number() }),
      idempotent: true,
      // @ts-expect-error `b` is not in the schema
      call: (args) => args.b,
    });
  });

  it('takes any Standard Schema, typed by its declared output', () => {
    const schema = {} as StandardSchemaV1<{ raw: string }, { parsed: number }>;
    const tool = defineTool({
      name: 'std',
      description: 'x',
      parameters: schema,
      jsonSchema: { type: 'object' },
      idempotent: true,
      call: (args) => args.parsed,
    });
    expectTypeOf(tool.call).parameter(0).toEqualTypeOf<{ parsed: number }>();
  });

  it('offers jsonSchema only for a Standard Schema', () => {
    defineTool({
      name: 'plain',
      description: 'x',
      parameters: { type: 'object', properties: { a: { type: 'number' } } },
      // @ts-expect-error a JSON Schema needs no second JSON Schema
      jsonSchema: { type: 'object' },
      idempotent: true,
      call: () => null,
    });
  });
});

describe('argument types from a JSON Schema literal (unchanged beside Standard Schema)', () => {
  it('types arguments from a literal schema', () => {
    const tool = defineTool({
      name: 'add',
      description: 'Add',
      parameters: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' }, op: { enum: ['add', 'sub'] } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      idempotent: true,
      call: ({ a, b, op }) => {
        expectTypeOf(op).toEqualTypeOf<'add' | 'sub' | undefined>();
        return op === 'sub' ? a - b : a + b;
      },
    });
    expectTypeOf(tool.call).parameter(0).toEqualTypeOf<{ a: number; b: number; op?: 'add' | 'sub' }>();
  });

  it('types nested literal schemas', () => {
    defineTool({
      name: 'nested',
      description: 'x',
      parameters: { type: 'object', properties: { user: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } }, required: ['user'] },
      idempotent: true,
      call: (args) => {
        expectTypeOf(args.user.id).toEqualTypeOf<number>();
        return args.user.id;
      },
    });
  });
});
