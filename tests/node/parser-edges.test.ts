// Inputs that stress the scanner's fast paths: escapes across chunk boundaries, long
// backslash runs, a BOM and lone surrogates inside payloads, buffers that fill up.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TagToolCallParser } from '../../src/index.js';
import { chunk, collected, referenceParse, streamAll, withoutIds } from './parser-helpers.js';

const parser = new TagToolCallParser();
const call = (value: string) => `[TOOL_CALL]{"name":"note","args":{"text":${JSON.stringify(value)}}}[/TOOL_CALL]`;

const edgy = [
  call('a\\"b[/TOOL_CALL]c'),
  call(`${'\\'.repeat(33)}"quoted"`),
  call('\uFEFFstarts with a byte-order mark'),
  call('lone \uD800 high and \uDC00 low surrogates'),
  call(`${'x'.repeat(4_090)}\\"${'y'.repeat(20)}`),
  // The buffer holds bytes until a unit is not ASCII, then UTF-16 units: switch mid-buffer and across a flush.
  call(`${'x'.repeat(4_000)}é${'y'.repeat(200)}😀${'z'.repeat(5_000)}ü`),
  `before ${call('a'.repeat(5_000))} between ${call('\\\\'.repeat(3_000))} after`,
  '[TOOL_CALL]{"name":"note","args":{"text":"never closed \\" [/TOOL_CALL] tail',
];

describe('parser edge cases', () => {
  it.each(edgy.map((input, i) => [i, input] as const))('agrees with the reference, one character at a time (case %i)', (_i, input) => {
    const expected = referenceParse(input, '[TOOL_CALL]', '[/TOOL_CALL]');
    expect(withoutIds(parser.parse(input))).toEqual(expected);
    expect(collected(streamAll(parser.stream(), [...input]))).toEqual(expected);
    // One UTF-16 code unit at a time: surrogate pairs split across pushes.
    expect(collected(streamAll(parser.stream(), input.split('')))).toEqual(expected);
  });

  it('agrees with one-shot parsing when escapes fall on chunk boundaries', () => {
    fc.assert(
      fc.property(fc.constantFrom(...edgy), fc.array(fc.nat(12_000), { maxLength: 40 }), (input, cuts) => {
        expect(collected(streamAll(parser.stream(), chunk(input, cuts)))).toEqual(withoutIds(parser.parse(input)));
      }),
      { numRuns: 300 },
    );
  });

  it('keeps a payload with a BOM and lone surrogates exactly', () => {
    const value = '\uFEFFa\uD800b\uDC00';
    const parts = streamAll(parser.stream(), [...call(value)]);
    expect(collected(parts).calls).toEqual([{ name: 'note', arguments: { text: value } }]);
  });
});
