import { describe, expect, it } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import { InvalidTagsError } from '../../src/errors/invalid-tags-error.js';
import { TagToolCallParser } from '../../src/parser/tag-parser.js';

const parser = new TagToolCallParser();
const block = (payload: string) => `[TOOL_CALL]${payload}[/TOOL_CALL]`;

describe('TagToolCallParser construction', () => {
  it('uses [TOOL_CALL] and [/TOOL_CALL] by default', () => {
    expect([parser.open, parser.close]).toEqual(['[TOOL_CALL]', '[/TOOL_CALL]']);
  });

  it('hermes() uses <tool_call> and </tool_call>', () => {
    const hermes = TagToolCallParser.hermes();
    expect([hermes.open, hermes.close]).toEqual(['<tool_call>', '</tool_call>']);
    expect(hermes.parse('<tool_call>{"name":"a"}</tool_call>').calls.map((c) => c.name)).toEqual(['a']);
  });

  it('accepts custom tags', () => {
    const custom = new TagToolCallParser({ open: '<<call>>', close: '<</call>>' });
    expect(custom.parse('<<call>>{"name":"a"}<</call>>').calls).toHaveLength(1);
  });

  it.each([
    ['an empty open tag', { open: '' }],
    ['an empty close tag', { close: '' }],
    ['a blank tag', { open: '   ' }],
    ['identical open and close tags', { open: '||', close: '||' }],
    ['a close tag holding a double quote', { close: '"end"' }],
  ])('rejects %s with an InvalidTagsError', (_, options) => {
    const build = () => new TagToolCallParser(options);
    expect(build).toThrow(InvalidTagsError);
    try {
      build();
    } catch (error) {
      expect(isAmbiError(error, 'invalid_tags')).toBe(true);
    }
  });
});

describe('TagToolCallParser.parse', () => {
  it('returns the text outside tags, concatenated as is', () => {
    expect(parser.parse(`Hello,\n${block('{"name":"a"}')} world ${block('{"name":"b"}')}!`).text).toBe('Hello,\n world !');
  });

  it('gives every call a fresh id', () => {
    const input = block('[{"name":"a"},{"name":"a"}]');
    const ids = [...parser.parse(input).calls, ...parser.parse(input).calls].map((c) => c.id);
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^call_[0-9a-f]{24}$/);
  });

  it('reads "arguments" like "args"', () => {
    expect(parser.parse(block('{"name":"search","arguments":{"q":"cats"}}')).calls[0]).toMatchObject({
      name: 'search',
      arguments: { q: 'cats' },
    });
  });

  it('gives a call without args empty arguments', () => {
    expect(parser.parse(block('{"name":"now"}')).calls[0]?.arguments).toEqual({});
  });

  it('decodes arguments sent as a JSON string', () => {
    expect(parser.parse(block('{"name":"a","args":"{\\"q\\":1}"}')).calls[0]?.arguments).toEqual({ q: 1 });
  });

  it('keeps string arguments that are not JSON as the raw string', () => {
    expect(parser.parse(block('{"name":"a","args":"{q: 1"}')).calls[0]?.arguments).toBe('{q: 1');
  });

  it('reads a payload inside a ```json fence', () => {
    expect(parser.parse(block('\n```json\n{"name":"a","args":{"k":1}}\n```\n')).calls[0]?.arguments).toEqual({ k: 1 });
  });

  it('turns each valid list item into a call and each invalid one into an error whose raw is that item', () => {
    const result = parser.parse(block('[{"name":"a"}, 7, {"args":{}}, {"name":"b"}]'));
    expect(result.calls.map((c) => c.name)).toEqual(['a', 'b']);
    expect(result.errors.map((e) => e.raw)).toEqual(['7', '{"args":{}}']);
    expect(result.errors[0]?.message).toMatch(/^Item 2 of the list/);
  });

  it('reports broken JSON once, with the whole block as raw', () => {
    const raw = block('{"name":"a",}');
    const result = parser.parse(`before ${raw} after`);
    expect(result.errors).toEqual([{ code: 'malformed_tool_call', message: expect.stringContaining('not valid JSON'), raw }]);
    expect(result.text).toBe('before  after');
  });

  it("writes error messages for the model, with the expected format in the parser's own tags", () => {
    const [error] = TagToolCallParser.hermes().parse('<tool_call>{"args":{}}</tool_call>').errors;
    expect(error?.message).toContain('no "name"');
    expect(error?.message).toContain('<tool_call>{"name": "tool_name", "args": {"key": "value"}}</tool_call>');
  });

  it('reports an empty block', () => {
    expect(parser.parse(block('  ')).errors[0]?.message).toContain('empty');
  });

  it('reports a call holding both "args" and "arguments"', () => {
    const result = parser.parse(block('{"name":"a","args":{},"arguments":{}}'));
    expect(result.calls).toEqual([]);
    expect(result.errors[0]?.message).toContain('both "args" and "arguments"');
  });

  it('reports an unclosed block with the open tag and the rest as raw, and keeps it out of the text', () => {
    const result = parser.parse('Looking. [TOOL_CALL]{"name":"a"');
    expect(result.text).toBe('Looking. ');
    expect(result.errors).toEqual([{ code: 'malformed_tool_call', message: expect.stringContaining('never closed'), raw: '[TOOL_CALL]{"name":"a"' }]);
  });

  it('does not end a call at a close tag inside a JSON string', () => {
    const result = parser.parse(block('{"name":"echo","args":{"s":"a [/TOOL_CALL] b"}}'));
    expect(result.calls[0]?.arguments).toEqual({ s: 'a [/TOOL_CALL] b' });
    expect(result.errors).toEqual([]);
  });

  it('cuts at the first literal close tag when a string never closes, and goes on after it', () => {
    const result = parser.parse('[TOOL_CALL]{"name":"a","args":{"q":"x}[/TOOL_CALL] then [TOOL_CALL]{"name":"b"}[/TOOL_CALL]');
    expect(result.errors.map((e) => e.raw)).toEqual(['[TOOL_CALL]{"name":"a","args":{"q":"x}[/TOOL_CALL]']);
    expect(result.errors[0]?.message).toContain('string seems to be left open');
    expect(result.calls.map((c) => c.name)).toEqual(['b']);
    expect(result.text).toBe(' then ');
  });

  it('treats an open tag inside a block as payload text', () => {
    const result = parser.parse('[TOOL_CALL][TOOL_CALL]{"name":"a"}[/TOOL_CALL]');
    expect(result.calls).toEqual([]);
    expect(result.errors.map((e) => e.raw)).toEqual(['[TOOL_CALL][TOOL_CALL]{"name":"a"}[/TOOL_CALL]']);
  });

  it('keeps a close tag without an open tag as text, with no error', () => {
    expect(parser.parse('done [/TOOL_CALL]')).toEqual({ text: 'done [/TOOL_CALL]', calls: [], errors: [] });
  });
});
