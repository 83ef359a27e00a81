import { describe, expect, it } from 'vitest';
import { TagToolCallParser } from '../../src/parser/tag-parser.js';

const hermes = TagToolCallParser.hermes();
const block = (payload: unknown) => `<tool_call>${typeof payload === 'string' ? payload : JSON.stringify(payload)}</tool_call>`;

describe('tag payloads: the keys that carry the arguments', () => {
  it('reads "parameters" (Llama 3\'s JSON format) like "args"', () => {
    const result = hermes.parse(block({ name: 'get_weather', parameters: { location: 'Berlin' } }));
    expect(result.errors).toEqual([]);
    expect(result.calls).toMatchObject([{ name: 'get_weather', arguments: { location: 'Berlin' } }]);
  });

  it('decodes "parameters" given as JSON text, as it does "args"', () => {
    const result = hermes.parse(block({ name: 'get_weather', parameters: '{"location":"Berlin"}' }));
    expect(result.calls).toMatchObject([{ name: 'get_weather', arguments: { location: 'Berlin' } }]);
  });

  it('reads "parameters" in each element of a list', () => {
    const result = hermes.parse(
      block([
        { name: 'a', parameters: { x: 1 } },
        { name: 'b', args: { y: 2 } },
      ]),
    );
    expect(result.errors).toEqual([]);
    expect(result.calls.map((c) => c.arguments)).toEqual([{ x: 1 }, { y: 2 }]);
  });

  it.each([
    ['"args" and "parameters"', { name: 'a', args: { x: 1 }, parameters: { x: 2 } }, ['"args"', '"parameters"']],
    ['"arguments" and "parameters"', { name: 'a', arguments: { x: 1 }, parameters: { x: 2 } }, ['"arguments"', '"parameters"']],
    ['all three keys', { name: 'a', args: {}, arguments: {}, parameters: {} }, ['"args"', '"arguments"', '"parameters"']],
  ])('refuses a payload with both %s, naming them', (_, payload, named) => {
    const result = hermes.parse(block(payload));
    expect(result.calls).toEqual([]);
    expect(result.errors).toHaveLength(1);
    for (const key of named) expect(result.errors[0]!.message).toContain(key);
  });

  it('refuses arguments written beside the name, never running the call with {}', () => {
    const payload = '{"name": "get_weather", "location": "Berlin"}';
    const result = hermes.parse(block(payload));
    expect(result.calls).toEqual([]);
    expect(result.errors).toEqual([{ code: 'malformed_tool_call', message: expect.stringContaining('"location"'), raw: block(payload) }]);
    expect(result.errors[0]!.message).toContain('"args"');
  });

  it('refuses an unknown carrier key such as "input" or "params"', () => {
    for (const key of ['input', 'params', 'kwargs']) {
      const result = hermes.parse(block({ name: 'get_weather', [key]: { location: 'Berlin' } }));
      expect(result.calls, key).toEqual([]);
      expect(result.errors[0]?.message, key).toContain(`"${key}"`);
    }
  });

  it('refuses such an element of a list and keeps the valid ones', () => {
    const result = hermes.parse(
      block([
        { name: 'a', location: 'x' },
        { name: 'b', parameters: {} },
      ]),
    );
    expect(result.calls.map((c) => c.name)).toEqual(['b']);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.message).toMatch(/^Item 1 of the list: /);
  });

  it('still reads a payload with only a name as a call with {} (a tool without parameters)', () => {
    const result = hermes.parse(block({ name: 'now' }));
    expect(result.errors).toEqual([]);
    expect(result.calls).toMatchObject([{ name: 'now', arguments: {} }]);
  });

  it('streams the same decisions as it parses', () => {
    const input = `a ${block({ name: 'x', parameters: { q: 1 } })} b ${block({ name: 'y', q: 1 })}`;
    const stream = hermes.stream();
    const parts = [...input].flatMap((char) => [...stream.push(char)]).concat(stream.end());
    expect(parts.filter((p) => p.type === 'call')).toMatchObject([{ call: { name: 'x', arguments: { q: 1 } } }]);
    expect(parts.filter((p) => p.type === 'error')).toHaveLength(1);
  });
});

/** Every part of one reply pushed in chunks of `size` characters, with the work the scanners did. */
function streamIn(input: string, size: number) {
  const stream = hermes.stream();
  const parts = [];
  for (let i = 0; i < input.length; i += size) parts.push(...stream.push(input.slice(i, i + size)));
  parts.push(...stream.end());
  return { parts, errors: parts.filter((p) => p.type === 'error'), calls: parts.filter((p) => p.type === 'call'), work: stream.scannedChars };
}

const KB = 1024;
/** A model-facing message stays short whatever the block holds: only `raw` grows with it. */
const MAX_MESSAGE = 600;

// Each reply is parsed in several ways, and each bad block costs a JSON.parse exception: a budget for a loaded machine.
describe('hostile replies of many bad blocks: one error per block, linear work', { timeout: 30_000 }, () => {
  const shapes = [
    ['empty blocks', '<tool_call></tool_call>'],
    ['blank blocks', '<tool_call> \n\t </tool_call>'],
    ['blocks of broken JSON', '<tool_call>{</tool_call>'],
    ['blocks holding only a fence', '<tool_call>```</tool_call>'],
    ['blocks of nested opening tags', `${'<tool_call>'.repeat(40)}</tool_call>`],
    ['blocks of names without a tool', '<tool_call>{"name":""}</tool_call>'],
  ] as const;

  it.each(shapes)('%s: batch and stream report every block', (_, unit) => {
    const blocks = Math.floor((460 * KB) / unit.length);
    const input = unit.repeat(blocks);
    const batch = hermes.parse(input);
    expect(batch.calls).toEqual([]);
    expect(batch.errors).toHaveLength(blocks);
    expect(batch.text).toBe('');
    for (const size of [1, 4096]) expect(streamIn(input, size).errors, `chunks of ${size}`).toHaveLength(blocks);
    expect(Math.max(...batch.errors.map((e) => e.message.length))).toBeLessThan(MAX_MESSAGE);
  });

  it.each(shapes)('%s: the scan reads each character once, whatever the chunking', (_, unit) => {
    const input = unit.repeat(Math.floor((512 * KB) / unit.length));
    for (const size of [1, 7, input.length]) expect(streamIn(input, size).work, `chunks of ${size}`).toBe(input.length);
  });
});

describe('hostile replies that never close a block: one error, linear work', { timeout: 30_000 }, () => {
  const shapes = [
    ['1 MB of opening tags', '<tool_call>'],
    ['unclosed blocks with a string left open', '<tool_call>"'],
    ['unclosed blocks of call prefixes', '<tool_call>{"name":"'],
  ] as const;
  const MB = 1024 * KB;

  it.each(shapes)('%s: the whole reply is one unclosed error, batch and streamed', (_, unit) => {
    const input = unit.repeat(Math.floor(MB / unit.length));
    const batch = hermes.parse(input);
    expect(batch.calls).toEqual([]);
    expect(batch.text).toBe('');
    expect(batch.errors).toHaveLength(1);
    expect(batch.errors[0]!.message).toContain('never closed');
    expect(batch.errors[0]!.message.length).toBeLessThan(MAX_MESSAGE);
    expect(batch.errors[0]!.raw).toBe(input);
    for (const size of [1, 4096]) expect(streamIn(input, size).errors, `chunks of ${size}`).toEqual([{ type: 'error', error: batch.errors[0] }]);
  });

  it.each(shapes)('%s: work grows linearly with the reply', (_, unit) => {
    const work = (bytes: number) => streamIn(unit.repeat(Math.floor(bytes / unit.length)), 1).work;
    const half = work(MB / 2);
    const whole = work(MB);
    // The streamed scan, the fallback's rescan and its search for close tags: each reads a character at most once.
    expect(whole).toBeLessThanOrEqual(3 * MB);
    expect(whole).toBeLessThanOrEqual(2 * half + 100);
  });
});

describe('hostile payloads: errors stay coded and short', () => {
  const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it.each([
    ['a list of lists nested 100 000 deep', deep(100_000)],
    ['a list holding such a list', `[${deep(100_000)}, {"name":"ok"}]`],
    ['a name that is such a list', `{"name": ${deep(100_000)}}`],
  ])('reports %s as a format error rather than throwing', (_, payload) => {
    const input = block(payload);
    const result = hermes.parse(input);
    expect(result.errors.length).toBeGreaterThan(0);
    for (const error of result.errors) {
      expect(error.code).toBe('malformed_tool_call');
      expect(error.message.length).toBeLessThan(MAX_MESSAGE);
      // The item cannot be written back as JSON, so its snippet is the block it came from.
      expect(input.startsWith(error.raw) || error.raw === input).toBe(true);
    }
    expect(streamIn(input, 1).errors.map((p) => p.error)).toEqual(result.errors);
  });

  it('keeps the message of a 1 MB block that is not JSON short', () => {
    for (const payload of ['x'.repeat(1 << 20), `{"name":"a","args":{"s":"${'y'.repeat(1 << 20)}"},}`]) {
      const result = hermes.parse(block(payload));
      expect(result.errors).toHaveLength(1);
      expect(result.errors[0]!.message).toContain('not valid JSON');
      expect(result.errors[0]!.message.length).toBeLessThan(MAX_MESSAGE);
    }
  });

  it('quotes a long bad name shortened', () => {
    const result = hermes.parse(block({ name: { value: 'n'.repeat(100_000) } }));
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.message.length).toBeLessThan(MAX_MESSAGE);
    expect(result.errors[0]!.message).toContain('{"value":"nnn');
  });

  it('names at most a few stray keys, each shortened', () => {
    const fields = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`${'k'.repeat(1000)}${i}`, i]));
    const result = hermes.parse(block({ name: 'get_weather', ...fields }));
    expect(result.calls).toEqual([]);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]!.message.length).toBeLessThan(MAX_MESSAGE);
    expect(result.errors[0]!.message).toContain('"kkkk');
  });
});
