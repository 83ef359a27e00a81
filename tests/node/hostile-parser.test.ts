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
    const result = hermes.parse(block([{ name: 'a', parameters: { x: 1 } }, { name: 'b', args: { y: 2 } }]));
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
    const result = hermes.parse(block([{ name: 'a', location: 'x' }, { name: 'b', parameters: {} }]));
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
