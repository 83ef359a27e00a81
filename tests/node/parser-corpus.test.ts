import { describe, expect, it } from 'vitest';
import { TagToolCallParser } from '../../src/parser/tag-parser.js';
import { corpus } from './parser-corpus.js';

describe('TagToolCallParser on the hostile corpus', () => {
  it('holds at least 150 model replies with distinct names', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(150);
    expect(new Set(corpus.map((entry) => entry.name)).size).toBe(corpus.length);
  });

  it.each(corpus)('$name', ({ input, tags, expect: expected }) => {
    const result = new TagToolCallParser(tags).parse(input);

    expect(result.text).toBe(expected.text);
    expect(result.calls.map(({ name, arguments: args }) => ({ name, arguments: args }))).toEqual(expected.calls);
    expect(result.errors).toHaveLength(expected.errors);
    for (const error of result.errors) {
      expect(error.code).toBe('malformed_tool_call');
      expect(error.raw.length).toBeGreaterThan(0);
    }
  });
});
