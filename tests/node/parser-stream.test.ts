import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import { TagToolCallParser } from '../../src/parser/tag-parser.js';
import { corpus } from './parser-corpus.js';
import { chunk, collected, referenceParse, streamAll, withoutIds } from './parser-helpers.js';

const parser = new TagToolCallParser();

describe('TagToolCallParser.stream', () => {
  it('emits text at once when it cannot start a tag', () => {
    expect(parser.stream().push('Hello world')).toEqual([{ type: 'text', text: 'Hello world' }]);
  });

  it('holds back only the end of the text that may start an open tag', () => {
    expect(parser.stream().push('Hello [TOOL_')).toEqual([{ type: 'text', text: 'Hello ' }]);
  });

  it('releases held-back text once it stops matching the tag', () => {
    const stream = parser.stream();
    stream.push('a [TOOL_');
    expect(stream.push('CALX] b')).toEqual([{ type: 'text', text: '[TOOL_CALX] b' }]);
  });

  it('releases held-back text at end()', () => {
    const stream = parser.stream();
    stream.push('see [TOOL');
    expect(stream.end()).toEqual([{ type: 'text', text: '[TOOL' }]);
  });

  it('emits a call as soon as its closing tag is pushed, before end()', () => {
    const stream = parser.stream();
    expect(stream.push('Sure. [TOOL_CALL]{"name":"search",')).toEqual([{ type: 'text', text: 'Sure. ' }]);
    expect(stream.push('"args":{"q":"cats"}}')).toEqual([]);
    const parts = stream.push('[/TOOL_CALL] more');
    expect(parts).toMatchObject([
      { type: 'call', call: { name: 'search', arguments: { q: 'cats' } } },
      { type: 'text', text: ' more' },
    ]);
    expect(stream.end()).toEqual([]);
  });

  it('emits the call on the chunk that completes a split closing tag', () => {
    const stream = parser.stream();
    stream.push('[TOOL_CALL]{"name":"a"}[/TOOL');
    expect(stream.push('_CAL')).toEqual([]);
    expect(stream.push('L]')).toMatchObject([{ type: 'call', call: { name: 'a' } }]);
  });

  it('emits the error for a broken block when its closing tag arrives', () => {
    const stream = parser.stream();
    stream.push('[TOOL_CALL]{"name":');
    expect(stream.push('[/TOOL_CALL]')).toMatchObject([{ type: 'error', error: { raw: '[TOOL_CALL]{"name":[/TOOL_CALL]' } }]);
  });

  it('does not end a block at a close tag that arrives inside a string', () => {
    const stream = parser.stream();
    expect(stream.push('[TOOL_CALL]{"name":"a","args":{"s":"[/TOOL_CALL]')).toEqual([]);
    expect(stream.push('"}}[/TOOL_CALL]')).toMatchObject([{ type: 'call', call: { arguments: { s: '[/TOOL_CALL]' } } }]);
  });

  it('leaves a block whose string never closes to end(), which cuts it at the first literal close tag', () => {
    const stream = parser.stream();
    expect(stream.push('[TOOL_CALL]{"name":"a","args":{"q":"x}[/TOOL_CALL] after')).toEqual([]);
    expect(stream.end()).toMatchObject([
      { type: 'error', error: { raw: '[TOOL_CALL]{"name":"a","args":{"q":"x}[/TOOL_CALL]' } },
      { type: 'text', text: ' after' },
    ]);
  });

  it('reports an unclosed block at end()', () => {
    const stream = parser.stream();
    stream.push('[TOOL_CALL]{"name"');
    expect(stream.end()).toMatchObject([{ type: 'error', error: { raw: '[TOOL_CALL]{"name"' } }]);
  });

  it('refuses push() and end() after end()', () => {
    const stream = parser.stream();
    stream.end();
    for (const use of [() => stream.push('x'), () => stream.end()]) {
      expect(use).toThrow(/ended/);
      try {
        use();
      } catch (error) {
        expect(isAmbiError(error, 'stream_ended')).toBe(true);
      }
    }
  });

  it('refuses push() after end() when the reply ended inside a block', () => {
    const stream = parser.stream();
    stream.push('[TOOL_CALL]{"name":"a"');
    stream.end();
    expect(() => stream.push('x')).toThrow(/ended/);
    expect(() => stream.push('}[/TOOL_CALL]')).toThrow(/ended/);
  });

  it('returns parts a caller cannot alter for later pushes', () => {
    const stream = parser.stream();
    const [first] = stream.push('a');
    expect(() => Object.assign(first!, { text: 'changed' })).toThrow(TypeError);
    expect(stream.push('a')).toEqual([{ type: 'text', text: 'a' }]);
  });
});

const parserFor = (tags: (typeof corpus)[number]['tags']) => new TagToolCallParser(tags);

describe('streaming agrees with one-shot parsing', () => {
  it('for one-character chunks of every corpus reply', () => {
    for (const { name, input, tags } of corpus) {
      const p = parserFor(tags);
      const streamed = collected(
        streamAll(
          p.stream(),
          Array.from({ length: input.length }, (_, i) => input[i]!),
        ),
      );
      expect(streamed, name).toEqual(withoutIds(p.parse(input)));
    }
  });

  it('for random chunkings of corpus replies', () => {
    fc.assert(
      fc.property(fc.nat({ max: corpus.length - 1 }), fc.array(fc.nat(), { maxLength: 30 }), (index, cuts) => {
        const { input, tags } = corpus[index]!;
        const p = parserFor(tags);
        expect(collected(streamAll(p.stream(), chunk(input, cuts)))).toEqual(withoutIds(p.parse(input)));
      }),
      { numRuns: 300 },
    );
  });

  it('for random chunkings of generated replies', () => {
    fc.assert(
      fc.property(generatedReply, fc.array(fc.nat(), { maxLength: 20 }), ({ tags, input }, cuts) => {
        const p = new TagToolCallParser(tags);
        const parts = streamAll(p.stream(), chunk(input, cuts));
        expect(collected(parts)).toEqual(withoutIds(p.parse(input)));
        // Text parts are never empty: nothing is emitted for nothing.
        expect(parts.filter((part) => part.type === 'text' && part.text === '')).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});

describe('one-shot parsing agrees with a slow reference implementation of the rules', () => {
  it('for generated replies', () => {
    fc.assert(
      fc.property(generatedReply, ({ tags, input }) => {
        expect(withoutIds(new TagToolCallParser(tags).parse(input))).toEqual(referenceParse(input, tags.open, tags.close));
      }),
      { numRuns: 1000 },
    );
  });

  it('for every corpus reply under 10 KB', () => {
    for (const { name, input, tags } of corpus.filter((entry) => entry.input.length < 10_000)) {
      const p = parserFor(tags);
      expect(withoutIds(p.parse(input)), name).toEqual(referenceParse(input, p.open, p.close));
    }
  });
});

describe('streaming cost is linear in the input', () => {
  const MB = 1 << 20;
  const pushByChar = (input: string) => {
    const stream = parser.stream();
    for (let i = 0; i < input.length; i++) stream.push(input[i]!);
    stream.end();
    return stream.scannedChars;
  };

  it('scans each character of 1 MB of tag-like text exactly once when pushed one character at a time', () => {
    const input = 'Hello [TOOL_CAL [TOOL_ [/TOOL_CALL] '.repeat(MB / 36);
    expect(pushByChar(input)).toBe(input.length);
  });

  it('scans each character of 1 MB of calls exactly once when pushed one character at a time', () => {
    const one = 'ok [TOOL_CALL]{"name":"echo","args":{"s":"a \\" [/TOOL_CALL] b"}}[/TOOL_CALL] ';
    const input = one.repeat(Math.ceil(MB / one.length));
    expect(pushByChar(input)).toBe(input.length);
  });

  it('keeps the end-of-input fallback linear when every close tag sits inside a string', () => {
    // Rescanning from each cut would be quadratic here: every block's scan runs to the end.
    const unit = '[TOOL_CALL] "[/TOOL_CALL]" ';
    const work = (units: number) => pushByChar(unit.repeat(units));
    const small = work(MB / unit.length / 2);
    const large = work(MB / unit.length);
    const chars = unit.length * Math.floor(MB / unit.length);
    expect(large).toBeLessThanOrEqual(6 * chars);
    expect(large).toBeLessThanOrEqual(2 * small + 100);
  });
});

/** Replies built from pieces of tags, JSON, quotes and escapes, under one of several tag pairs. */
const tagPairs = [
  { open: '[TOOL_CALL]', close: '[/TOOL_CALL]' },
  { open: '<tool_call>', close: '</tool_call>' },
  { open: 'aab', close: 'aac' },
  { open: '@@', close: '@@end' },
];
const generatedReply = fc
  .constantFrom(...tagPairs)
  .chain((tags) =>
    fc
      .array(
        fc.constantFrom(
          tags.open,
          tags.close,
          tags.open.slice(0, 2),
          tags.open.slice(2),
          tags.close.slice(0, 3),
          '"',
          '\\',
          '\\"',
          'a',
          ' ',
          '\n',
          '{"name":"t"}',
          '{"name":"u","args":{"s":"',
          '"}}',
          '[{"name":"v"},1]',
          '{',
          '}',
          '```json\n',
          '```',
          '😀',
        ),
        { maxLength: 40 },
      )
      .map((pieces) => ({ tags, input: pieces.join('') })),
  );
