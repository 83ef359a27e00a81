// The grammar of a local model's answering turn: JSON of the output schema, or calls when tools may be called.
import { describe, expect, test } from 'vitest';
import { answerGrammar, looseKeywords } from '../../src/engines/local/answer-grammar.js';
import { DEFAULT_CALL_TAGS } from '../../src/parser/call-tags.js';
import type { ToolDefinition } from '../../src/index.js';
import { GbnfGrammar } from '../support/gbnf-recognizer.js';

const tools: ToolDefinition[] = [{ name: 'add', description: 'Add.', parameters: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] } }];
const schema = { type: 'object', properties: { city: { type: 'string', maxLength: 8 }, hot: { type: 'boolean' } }, required: ['city', 'hot'] };
const format = { name: 'output', schema };
const parse = (text: string) => new GbnfGrammar(text);

describe('answerGrammar', () => {
  test('without tools: only JSON of the schema', () => {
    const grammar = parse(answerGrammar([], 'auto', DEFAULT_CALL_TAGS, format));
    expect(grammar.accepts('{"city": "Oslo", "hot": false}')).toBe(true);
    expect(grammar.accepts('{"city": "Oslo"}')).toBe(false);
    expect(grammar.accepts('{"city": "far too long a name", "hot": true}')).toBe(false);
    expect(grammar.accepts('It is cold in Oslo.')).toBe(false);
  });

  test('with tools and auto: the answer, or one or more calls, never prose', () => {
    const grammar = parse(answerGrammar(tools, 'auto', DEFAULT_CALL_TAGS, format));
    expect(grammar.accepts('{"city": "Rome", "hot": true}')).toBe(true);
    expect(grammar.accepts('[TOOL_CALL]{"name": "add", "args": {"a": 1}}[/TOOL_CALL]')).toBe(true);
    expect(grammar.accepts('[TOOL_CALL]{"name": "add", "args": {"a": 1}}[/TOOL_CALL]\n[TOOL_CALL]{"name": "add", "args": {"a": 2}}[/TOOL_CALL]')).toBe(true);
    expect(grammar.accepts('Let me add. [TOOL_CALL]{"name": "add", "args": {"a": 1}}[/TOOL_CALL]')).toBe(false);
    expect(grammar.accepts('')).toBe(false);
  });

  test("with toolChoice none: the answer only, the tools' calls refused", () => {
    const grammar = parse(answerGrammar(tools, 'none', DEFAULT_CALL_TAGS, format));
    expect(grammar.accepts('{"city": "Rome", "hot": true}')).toBe(true);
    expect(grammar.accepts('[TOOL_CALL]{"name": "add", "args": {"a": 1}}[/TOOL_CALL]')).toBe(false);
  });
});

describe('looseKeywords', () => {
  test('names what the grammar cannot express, each once, nested ones included', () => {
    const loose = {
      type: 'object',
      properties: {
        a: { type: 'string', pattern: 'x' },
        b: { type: 'array', items: { type: 'number', minimum: 0, pattern: 'y' } },
        c: { type: 'string', maxLength: 500 },
      },
    };
    expect(looseKeywords(loose).sort()).toEqual(['maxLength', 'minimum', 'pattern']);
  });

  test('a schema the grammar expresses whole has none', () => {
    expect(looseKeywords(schema)).toEqual([]);
  });
});
