// One behaviour whichever validator runs: ajv's compiled validators and the no-eval one
// (@cfworker/json-schema) must agree on every decision, every filled default and every
// message, in the same order. Node allows eval, so both run here side by side.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/index.js';
import { compileAjvValidator } from '../../src/validation/ajv/ajv-validator.js';
import { compileNoEvalValidator } from '../../src/validation/no-eval/no-eval-validator.js';

type Case = [title: string, schema: Record<string, unknown>, values: unknown[]];

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

const cases: Case[] = [
  [
    'types of every kind',
    object({
      s: { type: 'string' },
      n: { type: 'number' },
      i: { type: 'integer' },
      b: { type: 'boolean' },
      z: { type: 'null' },
      a: { type: 'array' },
      o: { type: 'object' },
    }),
    [{ s: 'x', n: 1.5, i: 2, b: true, z: null, a: [], o: {} }, { s: 1, n: 'x', i: 1.5, b: 'true', z: 0, a: {}, o: [] }, { i: 2.0, n: 0 }, [], 'text', 5, null],
  ],
  [
    'union types and nullable',
    object({ u: { type: ['string', 'number'] }, v: { type: 'string', nullable: true }, w: { type: ['integer', 'null'] } }),
    [
      { u: 'a', v: null, w: null },
      { u: true, v: 3, w: 1.5 },
      { u: [], v: 'x', w: 3 },
    ],
  ],
  [
    'required, additionalProperties and order of problems',
    object({ a: { type: 'number' }, b: { type: 'number' } }, { required: ['a', 'b'], additionalProperties: false }),
    [{ a: 1, b: 2 }, { a: 1, b: 'two' }, { a: 1, c: 3 }, {}, { c: 1, d: 2, a: 'x' }, { b: 'y', a: 'x', e: null }],
  ],
  [
    'additionalProperties as a schema',
    object({ a: { type: 'number' } }, { additionalProperties: { type: 'string', maxLength: 2 } }),
    [
      { a: 1, x: 'ok' },
      { a: 1, x: 5, y: 'long', z: 'no' },
    ],
  ],
  [
    'enum and const',
    object({ e: { enum: ['red', 'green', 1, null] }, c: { const: 'fixed' }, o: { const: { a: [1, 2] } }, oe: { enum: [{ x: 1 }, [1]] } }),
    [
      { e: 'red', c: 'fixed', o: { a: [1, 2] }, oe: [1] },
      { e: 'blue', c: 'other', o: { a: [2, 1] }, oe: { x: 2 } },
      { o: { valueOf: '' }, oe: { valueOf: 1 } }, // ajv's deep equality throws on these: the no-eval validator decides
    ],
  ],
  [
    'number limits',
    object({
      n: { type: 'number', minimum: 1, maximum: 10 },
      x: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
      m: { type: 'integer', multipleOf: 5 },
    }),
    [{ n: 1, x: 0.5, m: 10 }, { n: 0, x: 0, m: 7 }, { n: 11, x: 1, m: 12.5 }, { n: '5' }],
  ],
  [
    'string limits and patterns',
    object({
      s: { type: 'string', minLength: 2, maxLength: 4 },
      p: { type: 'string', pattern: '^[a-z]+$' },
      e: { type: 'string', format: 'email' },
      u: { type: 'string', minLength: 2 },
    }),
    [
      { s: 'abc', p: 'abc', e: 'not an email', u: '😀😀' },
      { s: 'a', p: 'ABC', u: '😀' },
      { s: 'abcde', p: 'a1' },
      { s: 5, p: 5 },
    ],
  ],
  [
    'arrays: items, limits, uniqueness',
    object({ l: { type: 'array', items: { type: 'number' }, minItems: 1, maxItems: 3, uniqueItems: true }, t: { type: 'array', uniqueItems: true } }),
    [{ l: [1, 2], t: [1, 'a', { a: 1 }] }, { l: [], t: [{ a: 1 }, 2, { a: 1 }] }, { l: [1, 'x', 1, 2] }, { l: [3, 1, 3, 2, 2] }, { l: ['a', 'a', 1] }],
  ],
  [
    'uniqueItems with mixed scalar item types',
    object({ l: { type: 'array', items: { type: ['string', 'number'] }, uniqueItems: true } }),
    [{ l: ['1', 1] }, { l: ['1', 1, '1'] }, { l: [1, true, 1] }],
  ],
  [
    'tuples and additionalItems',
    object({
      t: { type: 'array', items: [{ type: 'number' }, { type: 'string' }], additionalItems: false },
      u: { type: 'array', items: [{ type: 'number' }], additionalItems: { type: 'boolean' } },
    }),
    [{ t: [1, 'a'], u: [1, true, false] }, { t: [1, 'a', 2, 3], u: [1, 'x', 2] }, { t: ['a', 1] }],
  ],
  [
    'nested objects and arrays of objects',
    object(
      {
        user: object(
          { name: { type: 'string' }, tags: { type: 'array', items: object({ k: { type: 'string' }, v: { type: 'number' } }, { required: ['k'] }) } },
          { required: ['name'], additionalProperties: false },
        ),
      },
      { required: ['user'] },
    ),
    [{ user: { name: 'a', tags: [{ k: 'x', v: 1 }] } }, { user: { tags: [{ v: 'x' }, { k: 1, extra: true }, 5], other: 1 } }, { user: 'me' }],
  ],
  [
    'anyOf',
    object({
      v: {
        anyOf: [
          { type: 'string', minLength: 3 },
          { type: 'number', minimum: 10 },
        ],
      },
    }),
    [{ v: 'long' }, { v: 12 }, { v: 'ab' }, { v: 5 }, { v: null }],
  ],
  [
    'anyOf at the top, beside properties',
    object({ a: { type: 'number' } }, { additionalProperties: false, anyOf: [{ required: ['a'] }, { required: ['b'] }] }),
    [{ a: 1 }, { a: 'x', c: 1 }, {}],
  ],
  [
    'oneOf: none, one, two or three passing branches',
    object({}, { oneOf: [{ required: ['a'] }, { required: ['b'] }, { required: ['c'] }] }),
    [{ a: 1 }, {}, { a: 1, b: 2 }, { b: 1, c: 2 }, { a: 1, b: 2, c: 3 }, { a: 1, c: 1 }],
  ],
  ['allOf', object({ n: { allOf: [{ type: 'number' }, { minimum: 5 }, { maximum: 3 }] } }), [{ n: 4 }, { n: 'x' }, { n: 6 }]],
  ['not', object({ s: { type: 'string', not: { enum: ['forbidden'] } } }), [{ s: 'ok' }, { s: 'forbidden' }]],
  [
    'if / then / else',
    object(
      { kind: { type: 'string' } },
      { if: object({ kind: { const: 'a' } }, { required: ['kind'] }), then: { required: ['alpha'] }, else: { required: ['beta'] } },
    ),
    [{ kind: 'a', alpha: 1 }, { kind: 'a' }, { kind: 'b' }, {}],
  ],
  [
    'dependencies',
    object({}, { dependencies: { a: ['b', 'c'], x: ['y'], d: { required: ['e'], properties: { e: { type: 'string' } } } } }),
    [{ a: 1, b: 1, c: 1 }, { a: 1 }, { a: 1, b: 1, x: 1, d: 1 }, { d: 1, e: 2 }],
  ],
  ['propertyNames', object({}, { propertyNames: { maxLength: 2, pattern: '^[a-z]+$' } }), [{ ab: 1 }, { abc: 1, de: 2, F: 3 }]],
  [
    'patternProperties',
    object({ fixed: { type: 'number' } }, { patternProperties: { '^s_': { type: 'string' }, '^n_': { type: 'number' } }, additionalProperties: false }),
    [
      { fixed: 1, s_a: 'x', n_b: 2 },
      { s_a: 1, n_b: 'x', other: true, s_c: 'ok' },
    ],
  ],
  ['contains', object({ c: { type: 'array', contains: { type: 'number', minimum: 5 } } }), [{ c: [1, 6] }, { c: ['x', 1] }, { c: [] }]],
  [
    'min/maxProperties',
    object({ o: { type: 'object', minProperties: 2, maxProperties: 3 } }),
    [{ o: { a: 1, b: 2 } }, { o: {} }, { o: { a: 1, b: 2, c: 3, d: 4 } }],
  ],
  [
    '$ref to definitions, recursion, and keywords beside $ref',
    object(
      {
        node: { $ref: '#/definitions/node' },
        small: { $ref: '#/definitions/count', maximum: 3 },
      },
      {
        definitions: {
          count: { type: 'integer', minimum: 0 },
          node: object({ value: { type: 'number' }, children: { type: 'array', items: { $ref: '#/definitions/node' } } }, { required: ['value'] }),
        },
      },
    ),
    [
      { node: { value: 1, children: [{ value: 2, children: [] }] }, small: 2 },
      { node: { children: [{ value: 'x' }, { children: [{}] }] }, small: 5 },
      { small: -1 },
    ],
  ],
  [
    'boolean schemas',
    object({ never: false, always: true, list: { type: 'array', items: false } }),
    [{ always: 1 }, { never: 1 }, { list: [1, 2] }, { list: [] }],
  ],
  [
    'property names that need escaping',
    object(
      { 'a/b': { type: 'number' }, 'c~d': { type: 'number' }, 'e f': { type: 'number' }, 'g%h': { type: 'number' }, 'ü#': { type: 'number' } },
      { additionalProperties: false },
    ),
    [{ 'a/b': 'x', 'c~d': 'y', 'e f': 'z', 'g%h': 'w', 'ü#': 'v', 'x/y~z': 1 }],
  ],
  [
    'defaults: filled before the call, required satisfied, nested, tuple items',
    object(
      {
        who: { type: 'string', default: 'world' },
        count: { type: 'integer', default: 1, minimum: 1 },
        opts: object({ deep: { type: 'boolean', default: false } }, { default: {} }),
        pair: {
          type: 'array',
          items: [
            { type: 'number', default: 0 },
            { type: 'string', default: 'x' },
          ],
        },
        list: { type: 'array', items: object({ flag: { type: 'boolean', default: true } }) },
      },
      { required: ['who'] },
    ),
    [{}, { who: 'me', count: 0 }, { opts: { deep: 'yes' } }, { pair: [] }, { pair: [5] }, { list: [{}, { flag: false }] }, { who: undefined }],
  ],
  [
    'defaults through allOf, then and additionalProperties',
    object(
      { mode: { type: 'string' } },
      {
        allOf: [object({ level: { type: 'number', default: 3 } })],
        if: object({ mode: { const: 'fast' } }, { required: ['mode'] }),
        then: object({ speed: { type: 'number', default: 9 } }),
        additionalProperties: true,
      },
    ),
    [{}, { mode: 'fast' }, { mode: 'slow', level: 1 }],
  ],
  [
    'defaults through patternProperties, additionalProperties, $ref and an if on filled data',
    object(
      { base: { $ref: '#/definitions/base' } },
      {
        definitions: { base: object({ unit: { type: 'string', default: 'cm' } }) },
        patternProperties: { '^n_': object({ scale: { type: 'number', default: 1 } }) },
        additionalProperties: object({ on: { type: 'boolean', default: true } }),
        if: object({ base: object({ unit: { const: 'cm' } }, { required: ['unit'] }) }, { required: ['base'] }),
        then: object({ metric: { type: 'boolean', default: true } }),
      },
    ),
    [{}, { base: {} }, { base: { unit: 'in' }, n_a: {}, other: {} }, { n_b: { scale: 'x' }, extra: { on: 1 } }],
  ],
  ['arguments that are not JSON', object({ a: { type: 'number' } }), [{ a: () => 1 }, { a: new Map() }]],
];

/** The JSON Schema a zod tool is given to the model (and to a runner worker) with. */
const fromZod = (schema: z.ZodType) => defineTool({ name: 'z', description: 'z', parameters: schema, idempotent: true, call: () => null }).parameters;

cases.push(
  [
    'a JSON Schema written by zod: objects, unions, enums, nullables, defaults',
    fromZod(
      z.object({
        query: z.string().min(1).max(20),
        mode: z.enum(['fast', 'exact']).default('fast'),
        limit: z.number().int().positive().optional(),
        filter: z.union([z.string(), z.object({ field: z.string(), value: z.number() })]).optional(),
        email: z.email().optional(),
        note: z.string().nullable(),
        tags: z.array(z.string()).max(3).optional(),
      }),
    ),
    [
      { query: 'x', note: null },
      { query: '', mode: 'slow', limit: 0, note: 1 },
      { query: 'x', note: 'n', filter: { field: 1 }, tags: ['a', 'b', 'c', 'd'], email: 'nope' },
    ],
  ],
  [
    'a JSON Schema written by zod: a discriminated union and a record',
    fromZod(
      z.object({
        shape: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('circle'), r: z.number() }),
          z.object({ kind: z.literal('square'), side: z.number() }),
        ]),
        meta: z.record(z.string(), z.number()).optional(),
      }),
    ),
    [{ shape: { kind: 'circle', r: 1 } }, { shape: { kind: 'square', r: 1 } }, { shape: { kind: 'oval' }, meta: { a: 'x' } }],
  ],
);

describe('the no-eval validator agrees with ajv', () => {
  for (const [title, schema, values] of cases) {
    it(title, () => {
      const ajv = compileAjvValidator(structuredClone(schema));
      const noEval = compileNoEvalValidator(structuredClone(schema));
      for (const value of values) {
        let expected: unknown;
        let actual: unknown;
        try {
          expected = ajv(value);
        } catch (error) {
          expected = error;
        }
        try {
          actual = noEval(value);
        } catch (error) {
          actual = error;
        }
        expect(actual, `value ${String(JSON.stringify(value))}`).toEqual(expected);
      }
    });
  }

  it('on random arguments for every schema of the table', () => {
    for (const [title, schema] of cases) {
      // multipleOf: ajv divides in floating point (0.3 is no multiple of 0.1 for it, nor 5e21 of 5);
      // cfworker computes exactly. A known difference, documented; the table keeps exact cases.
      if (title.startsWith('arguments that are not JSON') || title === 'number limits') continue;
      const ajv = compileAjvValidator(structuredClone(schema));
      const noEval = compileNoEvalValidator(structuredClone(schema));
      const names = [...Object.keys((schema.properties as object | undefined) ?? {}), 'a', 'b', 'extra'];
      const args = fc.dictionary(fc.constantFrom(...names), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
      fc.assert(
        fc.property(args, (value) => {
          expect(noEval(value), title).toEqual(ajv(value));
        }),
        { numRuns: 300 },
      );
    }
    // Thousands of property checks: on a loaded 2-core machine this alone took 5.9 s once.
  }, 60_000);

  it('decides arguments parsed from JSON text (owned, validated in place) as ajv decides them', () => {
    for (const [title, schema, values] of cases) {
      if (title.startsWith('arguments that are not JSON')) continue;
      const ajv = compileAjvValidator(structuredClone(schema));
      const noEval = compileNoEvalValidator(structuredClone(schema));
      for (const value of values) {
        const text = JSON.stringify(value);
        expect(noEval(JSON.parse(text), true), `${title}: ${text}`).toEqual(ajv(JSON.parse(text), true));
      }
    }
  });

  it('reads owned arguments as JSON even when a default filled into them is not JSON (an undefined field is absent)', () => {
    const schema = object({ o: { type: 'object', required: ['a'], default: { a: undefined } } });
    const noEval = compileNoEvalValidator(schema);
    const expected = { ok: false, problems: ["/o must have required property 'a'"] };
    expect(noEval({})).toEqual(expected);
    expect(noEval(JSON.parse('{}'), true)).toEqual(expected);
    expect(compileAjvValidator(structuredClone(schema))(JSON.parse('{}'), true)).toEqual(expected);
  });

  it('accepts an unused definition with defaults whose pattern ajv never compiles, and fills the used ones', () => {
    const schema = object(
      { a: { $ref: '#/definitions/used' } },
      {
        definitions: { used: object({ b: { type: 'number', default: 1 } }), unused: object({ c: { default: 1 } }, { patternProperties: { '(': {} } }) },
      },
    );
    const expected = { ok: true, value: { a: { b: 1 } } };
    expect(compileAjvValidator(structuredClone(schema))(JSON.parse('{"a":{}}'), true)).toEqual(expected);
    expect(compileNoEvalValidator(structuredClone(schema))(JSON.parse('{"a":{}}'), true)).toEqual(expected);
  });

  it('writes the messages the model has always read', () => {
    const validate = compileNoEvalValidator({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' }, e: { enum: ['x', 'y'] } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    expect(validate({ a: 1, b: 'two', c: 3, e: 'z' })).toEqual({
      ok: false,
      problems: ["arguments must NOT have additional properties ('c')", '/b must be number', '/e must be equal to one of the allowed values: "x", "y"'],
    });
    expect(validate({})).toEqual({ ok: false, problems: ["arguments must have required property 'a'", "arguments must have required property 'b'"] });
  });
});

const badSchemas: Array<[title: string, schema: Record<string, unknown>]> = [
  ['an unknown type name', object({ a: { type: 'numbr' } })],
  ['a typo in a keyword', object({}, { requird: ['a'] })],
  ['a keyword value of the wrong type', object({ a: { type: 'string', minLength: '3' } })],
  ['a negative limit', object({ a: { type: 'array', maxItems: -1 } })],
  ['the old "id" keyword', object({}, { id: 'x' })],
  ['a default at the root', object({}, { default: {} })],
  ['a default inside anyOf', object({ x: { anyOf: [object({ a: { default: 1 } })] } })],
  ['a default inside oneOf', object({}, { oneOf: [object({ a: { default: 1 } }), { required: ['b'] }] })],
  ['an invalid regular expression', object({ a: { type: 'string', pattern: '(' } })],
  ['an invalid pattern property', object({}, { patternProperties: { '[': { type: 'string' } } })],
  ['a property matched by a pattern', object({ s_a: { type: 'string' } }, { patternProperties: { '^s_': { type: 'string' } } })],
  ['a reference to nothing', object({ a: { $ref: '#/definitions/missing' } })],
  ['additionalItems without a tuple', object({ l: { type: 'array', items: { type: 'number' }, additionalItems: false } })],
  ['then without if', object({}, { then: { required: ['a'] } })],
  ['nullable without type', object({ a: { nullable: true } })],
  ['type null with nullable false', object({ a: { type: 'null', nullable: false } })],
  ['an unknown keyword in a referenced definition', object({ a: { $ref: '#/definitions/d' } }, { definitions: { d: { type: 'string', maxLenght: 3 } } })],
  ['a 2019-09 keyword', object({}, { unevaluatedProperties: false })],
];

describe('the no-eval validator refuses the schemas ajv refuses', () => {
  it.each(badSchemas)('%s', (_title, schema) => {
    expect(() => compileAjvValidator(structuredClone(schema))).toThrow();
    expect(() => compileNoEvalValidator(structuredClone(schema))).toThrow();
  });

  it('words a meta-schema failure as ajv does', () => {
    const schema = object({ a: { type: 'numbr' } });
    const ajvMessage = captureMessage(() => compileAjvValidator(structuredClone(schema)));
    expect(captureMessage(() => compileNoEvalValidator(structuredClone(schema)))).toBe(ajvMessage);
    expect(ajvMessage).toMatch(/^schema is invalid: \/properties\/a\/type is "numbr": "numbr" is not a JSON Schema type; use one of "string", "number"/);
  });

  it('accepts what ajv accepts: unreferenced definitions are not compiled, annotations are known', () => {
    const schema = object(
      { a: { type: 'string', title: 'A', description: 'a', examples: ['x'], deprecated: true, readOnly: true, $comment: 'c' } },
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        definitions: { unused: { type: 'string', whatever: 1 } },
      },
    );
    expect(() => compileAjvValidator(structuredClone(schema))).not.toThrow();
    expect(() => compileNoEvalValidator(structuredClone(schema))).not.toThrow();
  });
});

function captureMessage(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a throw');
}
