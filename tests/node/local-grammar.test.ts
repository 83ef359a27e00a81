import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { toolCallGrammar } from '../../src/engines/local/grammar.js';
import { GbnfRules, literal } from '../../src/engines/local/gbnf.js';
import { MAX_UNROLLED_REPEAT, schemaRule } from '../../src/engines/local/grammar-schema.js';
import { isAmbiError, TagToolCallParser, type ToolDefinition } from '../../src/index.js';
import { GbnfGrammar } from '../support/gbnf-recognizer.js';

const TAGS = { open: '[TOOL_CALL]', close: '[/TOOL_CALL]' };

const add: ToolDefinition = {
  name: 'add',
  description: 'Add two integers',
  parameters: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] },
};
const note: ToolDefinition = {
  name: 'save_note',
  description: 'Save a note',
  parameters: {
    type: 'object',
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 12 },
      tags: { type: 'array', items: { enum: ['work', 'home'] }, maxItems: 2 },
      due: { type: ['string', 'null'] },
      meta: { type: 'object', properties: { pinned: { type: 'boolean' }, score: { type: 'number' } }, required: ['pinned'] },
    },
    required: ['title'],
  },
};

const call = (name: string, args: unknown) => `${TAGS.open}${JSON.stringify({ name, args })}${TAGS.close}`;
const grammarFor = (tools: ToolDefinition[], choice: Parameters<typeof toolCallGrammar>[1] = 'auto') => new GbnfGrammar(toolCallGrammar(tools, choice, TAGS)!);
/** A grammar whose root is one schema's values. */
function schemaGrammar(schema: unknown): GbnfGrammar {
  const rules = new GbnfRules();
  return new GbnfGrammar(rules.grammar(schemaRule(rules, schema, 'value')));
}

describe('grammar text', () => {
  test('a tool with two required integers gives this exact grammar', () => {
    expect(toolCallGrammar([add], 'required', TAGS)).toBe(
      [
        'root ::= call',
        'ws ::= " "?',
        'json-integer ::= "-"? ( "0" | [1-9] [0-9]{0,15} )',
        'args-add ::= "{" ws "\\"a\\"" ws ":" ws json-integer ws "," ws "\\"b\\"" ws ":" ws json-integer ws "}"',
        'call-add ::= "[TOOL_CALL]" "{" ws "\\"name\\"" ws ":" ws "\\"add\\"" ws "," ws "\\"args\\"" ws ":" ws args-add ws "}" "[/TOOL_CALL]"',
        'call ::= call-add',
        '',
      ].join('\n'),
    );
  });

  test('free text may not contain the open tag: one rule per matched prefix of it', () => {
    const text = toolCallGrammar([add], 'none', TAGS)!;
    expect(text.split('\n')[0]).toBe('root ::= prose');
    expect(text).toContain('prose ::= ( [^\\x5B] prose | "[" prose-1 )?');
    expect(text).toContain('prose-10 ::= ( [^\\x5B\\x5D] prose | "[" prose-1 )?');
    expect(text).not.toContain('call');
  });

  test('optional properties keep the schema order and need no comma of their own', () => {
    const text = toolCallGrammar([note], 'required', TAGS)!;
    expect(text).toContain(
      'args-save-note ::= "{" ws "\\"title\\"" ws ":" ws args-save-note-title ( ws "," ws "\\"tags\\"" ws ":" ws args-save-note-tags )? ( ws "," ws "\\"due\\"" ws ":" ws args-save-note-due )? ( ws "," ws "\\"meta\\"" ws ":" ws args-save-note-meta )? ws "}"',
    );
    expect(text).toContain('args-save-note-title ::= "\\"" json-char{1,12} "\\""');
    expect(text).toContain('args-save-note-tags-item ::= "\\"work\\"" | "\\"home\\""');
    expect(text).toContain('args-save-note-due ::= json-string | json-null');
  });

  test('every grammar parses, defines every rule it uses, and has no duplicate rule', () => {
    for (const choice of ['auto', 'required', 'none', { name: 'save_note' }] as const) {
      expect(() => grammarFor([add, note], choice)).not.toThrow();
    }
  });

  test('no tools, no grammar: the text is free', () => {
    expect(toolCallGrammar([], 'auto', TAGS)).toBeUndefined();
    expect(toolCallGrammar([], 'required', TAGS)).toBeUndefined();
  });

  test('forcing a tool that is not registered is a coded error', () => {
    const attempt = () => toolCallGrammar([add], { name: 'nope' }, TAGS);
    expect(attempt).toThrow(/not a registered tool/);
    try {
      attempt();
    } catch (error) {
      expect(isAmbiError(error, 'invalid_tool_choice')).toBe(true);
    }
  });

  test('tags a parser refuses are refused the same way: invalid_tags', () => {
    const unusable = [
      { open: '<x>', close: '<x>' },
      { open: ' ', close: '</x>' },
      { open: '<x>', close: '</x">' },
    ];
    for (const tags of unusable) {
      const errors = [() => new TagToolCallParser(tags), () => toolCallGrammar([add], 'auto', tags)].map((attempt) => {
        try {
          attempt();
        } catch (error) {
          return error;
        }
        return undefined;
      });
      expect(
        errors.map((error) => isAmbiError(error, 'invalid_tags')),
        JSON.stringify(tags),
      ).toEqual([true, true]);
    }
  });

  test('GBNF literals escape quotes, backslashes and control characters', () => {
    expect(literal('a"b\\c\nd\u0001é')).toBe('"a\\"b\\\\c\\nd\\x01é"');
  });
});

describe('what the grammar accepts', () => {
  test('required: exactly one well-formed call to a registered tool', () => {
    const grammar = grammarFor([add, note], 'required');
    expect(grammar.accepts(call('add', { a: 1, b: -20 }))).toBe(true);
    expect(grammar.accepts('[TOOL_CALL]{"name": "add", "args": {"a": 1, "b": 2}}[/TOOL_CALL]')).toBe(true);
    expect(grammar.accepts(call('save_note', { title: 'x' }))).toBe(true);
    expect(grammar.accepts(call('sub', { a: 1, b: 2 }))).toBe(false);
    expect(grammar.accepts(call('add', { a: 1 }))).toBe(false);
    expect(grammar.accepts(call('add', { a: 1, b: 2.5 }))).toBe(false);
    expect(grammar.accepts(call('add', { a: 1, b: 2, c: 3 }))).toBe(false);
    expect(grammar.accepts(call('add', { b: 2, a: 1 }))).toBe(false);
    expect(grammar.accepts(call('add', { a: 1, b: 2 }).slice(0, -1))).toBe(false);
    expect(grammar.accepts(`Sure. ${call('add', { a: 1, b: 2 })}`)).toBe(false);
    expect(grammar.accepts(call('add', { a: 1, b: 2 }) + call('add', { a: 1, b: 2 }))).toBe(false);
    expect(grammar.accepts('I will not call anything.')).toBe(false);
  });

  test('a named tool choice admits only that tool', () => {
    const grammar = grammarFor([add, note], { name: 'add' });
    expect(grammar.accepts(call('add', { a: 1, b: 2 }))).toBe(true);
    expect(grammar.accepts(call('save_note', { title: 'x' }))).toBe(false);
  });

  test('auto: free text, or text then calls, but never a broken call', () => {
    const grammar = grammarFor([add]);
    expect(grammar.accepts('')).toBe(true);
    expect(grammar.accepts('The answer is 4 [see note] and [TOOL_CAL is not a tag.')).toBe(true);
    expect(grammar.accepts(`Let me add. ${call('add', { a: 2, b: 2 })}`)).toBe(true);
    expect(grammar.accepts(`${call('add', { a: 2, b: 2 })}\n${call('add', { a: 3, b: 3 })}`)).toBe(true);
    expect(grammar.accepts(`${call('add', { a: 2, b: 2 })} and then some text`)).toBe(false);
    expect(grammar.accepts('[TOOL_CALL]{"name": "add", "args": {"a": "two"}}[/TOOL_CALL]')).toBe(false);
    expect(grammar.accepts('[TOOL_CALL]not json')).toBe(false);
    expect(grammar.accepts('a [[TOOL_CALL] in the middle')).toBe(false);
  });

  test('none: any text without the open tag', () => {
    const grammar = grammarFor([add], 'none');
    expect(grammar.accepts('Plain words, [brackets], [/TOOL_CALL] and [TOOL_CALX].')).toBe(true);
    expect(grammar.accepts(call('add', { a: 1, b: 2 }))).toBe(false);
    expect(grammar.accepts('x[TOOL_CALL]')).toBe(false);
  });

  test('what the grammar lets through, the tag parser reads as calls with no format error', () => {
    const grammar = grammarFor([add, note]);
    const parser = new TagToolCallParser();
    const reply = `Two things. ${call('add', { a: 2, b: 3 })}\n${call('save_note', { title: 'milk', tags: ['home'], meta: { pinned: true } })}`;
    expect(grammar.accepts(reply)).toBe(true);
    const parsed = parser.parse(reply);
    expect(parsed.errors).toEqual([]);
    expect(parsed.calls.map((c) => [c.name, c.arguments])).toEqual([
      ['add', { a: 2, b: 3 }],
      ['save_note', { title: 'milk', tags: ['home'], meta: { pinned: true } }],
    ]);
  });
});

describe('schema subset', () => {
  test('nested objects: required inner keys are required, optional ones optional', () => {
    const grammar = schemaGrammar(note.parameters);
    expect(grammar.accepts('{"title":"a","meta":{"pinned":false}}')).toBe(true);
    expect(grammar.accepts('{"title":"a","meta":{"pinned":false,"score":-1.5e3}}')).toBe(true);
    expect(grammar.accepts('{"title":"a","meta":{"score":1}}')).toBe(false);
  });

  test('string lengths, enums, type lists and array bounds', () => {
    const grammar = schemaGrammar(note.parameters);
    expect(grammar.accepts('{"title":""}')).toBe(false);
    expect(grammar.accepts('{"title":"twelve chars"}')).toBe(true);
    expect(grammar.accepts('{"title":"thirteen char"}')).toBe(false);
    expect(grammar.accepts('{"title":"a","tags":[]}')).toBe(true);
    expect(grammar.accepts('{"title":"a","tags":["work","home"]}')).toBe(true);
    expect(grammar.accepts('{"title":"a","tags":["work","home","work"]}')).toBe(false);
    expect(grammar.accepts('{"title":"a","tags":["office"]}')).toBe(false);
    expect(grammar.accepts('{"title":"a","due":null}')).toBe(true);
    expect(grammar.accepts('{"title":"a","due":"2025-01-01"}')).toBe(true);
    expect(grammar.accepts('{"title":"a","due":5}')).toBe(false);
  });

  test('minItems, const, anyOf, and objects with only optional keys', () => {
    expect(schemaGrammar({ type: 'array', items: { type: 'integer' }, minItems: 2 }).accepts('[1]')).toBe(false);
    expect(schemaGrammar({ type: 'array', items: { type: 'integer' }, minItems: 2 }).accepts('[1, 2, 3]')).toBe(true);
    expect(schemaGrammar({ const: 'fixed' }).accepts('"fixed"')).toBe(true);
    expect(schemaGrammar({ const: 'fixed' }).accepts('"other"')).toBe(false);
    const either = schemaGrammar({ anyOf: [{ type: 'boolean' }, { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }] });
    expect(either.accepts('true')).toBe(true);
    expect(either.accepts('{"n":1}')).toBe(true);
    expect(either.accepts('"x"')).toBe(false);
    const optional = schemaGrammar({ type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } } });
    for (const text of ['{}', '{"a":1}', '{"b":2}', '{"a":1,"b":2}']) expect(optional.accepts(text)).toBe(true);
    expect(optional.accepts('{,"b":2}')).toBe(false);
    expect(optional.accepts('{"b":2,"a":1}')).toBe(false);
  });

  test('integers stay within JavaScript-exact digits; numbers take any JSON number JavaScript prints', () => {
    const integer = schemaGrammar({ type: 'integer' });
    expect(integer.accepts('-9007199254740991')).toBe(true);
    expect(integer.accepts('12345678901234567')).toBe(false);
    expect(integer.accepts('1.5')).toBe(false);
    const number = schemaGrammar({ type: 'number' });
    for (const value of [0, -0.5, 1e20, 1e21, 0.30000000000000004, -0.0000010000000000000002, -1.7976931348623157e308, 5e-324]) {
      expect(number.accepts(JSON.stringify(value)), JSON.stringify(value)).toBe(true);
    }
    expect(number.accepts('01')).toBe(false);
    expect(number.accepts('1.')).toBe(false);
  });

  test('additionalProperties with a schema types the values of free keys', () => {
    const grammar = schemaGrammar({ type: 'object', additionalProperties: { type: 'number' } });
    expect(grammar.accepts('{"x":1,"y":2.5}')).toBe(true);
    expect(grammar.accepts('{"x":"1"}')).toBe(false);
    expect(schemaGrammar({ type: 'object', additionalProperties: false }).accepts('{}')).toBe(true);
  });

  test('what the subset lacks falls back to any JSON value, which the ToolManager still validates', () => {
    for (const schema of [{ $ref: '#/defs/x' }, { allOf: [{ type: 'string' }, { minLength: 2 }] }, {}, true]) {
      const grammar = schemaGrammar(schema);
      for (const text of ['1', '"s"', 'null', '[1,{"a":[]}]', '{"k": {"n": true}}']) expect(grammar.accepts(text)).toBe(true);
      expect(grammar.accepts('{bad}')).toBe(false);
    }
    // Keywords outside the subset are dropped, not enforced: looser, never stricter.
    expect(schemaGrammar({ type: 'string', pattern: '^a+$' }).accepts('"b"')).toBe(true);
    expect(schemaGrammar({ type: 'integer', minimum: 10 }).accepts('3')).toBe(true);
    expect(schemaGrammar({ type: 'string', maxLength: MAX_UNROLLED_REPEAT + 1 }).accepts(`"${'x'.repeat(200)}"`)).toBe(true);
  });

  test('for compact JSON in schema key order, the grammar accepts exactly what the schema validates', () => {
    const schema = note.parameters;
    const validate = new Ajv().compile(schema);
    const grammar = schemaGrammar(schema);
    const anyScalar = fc.oneof(
      fc.string({ maxLength: 14 }),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.boolean(),
      fc.constant(null),
    );
    // Mostly fitting values, sometimes a wrong one, so both outcomes are common.
    const mostly = <T>(fits: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fits, weight: 9 }, { arbitrary: anyScalar, weight: 1 });
    const candidate = fc.record(
      {
        title: mostly(fc.string({ minLength: 0, maxLength: 13 })),
        tags: mostly(fc.array(fc.constantFrom('work', 'home', 'home', 'office'), { maxLength: 3 })),
        due: mostly(fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null))),
        meta: mostly(
          fc.record({ pinned: mostly(fc.boolean()), score: mostly(fc.double({ noNaN: true, noDefaultInfinity: true })) }, { requiredKeys: ['score'] }),
        ),
      },
      { requiredKeys: [] },
    );
    const outcomes = { valid: 0, invalid: 0 };
    fc.assert(
      fc.property(candidate, (value) => {
        const valid = validate(value);
        outcomes[valid ? 'valid' : 'invalid']++;
        expect(grammar.accepts(JSON.stringify(value))).toBe(valid);
      }),
      { numRuns: 400 },
    );
    expect(Math.min(outcomes.valid, outcomes.invalid)).toBeGreaterThan(40);
  });
});
