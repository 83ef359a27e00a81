import { afterEach, describe, expect, it, vi } from 'vitest';
import { cappedJson } from '../../src/call/capped-json.js';
import { toolMessage } from '../../src/call/result.js';
import type { JsonValue } from '../../src/core/types.js';

const samples: unknown[] = [
  null,
  0,
  -0,
  1e21,
  -1.5e-7,
  true,
  'plain',
  'quote " backslash \\ newline \n tab \t nul \u0000',
  'emoji 😀 and a lone \ud800 surrogate',
  [],
  {},
  [1, 'two', null, [3, { four: 4 }]],
  { a: 1, b: undefined, c: [undefined, 2], '': 'empty key', 'k"ey': { nested: ['deep'] } },
  JSON.parse('{"__proto__": {"x": 1}, "y": 2}'),
];

/** A 1 MB result: 10,000 rows of about 100 characters. */
const megabyte = (): JsonValue => Array.from({ length: 10_000 }, (_, i) => ({ id: i, title: `Row ${i}`, body: 'x'.repeat(70), tags: ['a', 'b'] }));

afterEach(() => vi.restoreAllMocks());

describe('a JSON value written up to a cap', () => {
  it('is what JSON.stringify writes, when under the cap', () => {
    for (const value of samples) expect(cappedJson(value, 1_000_000)).toEqual({ text: JSON.stringify(value), length: JSON.stringify(value).length });
  });

  it('is the first characters of what JSON.stringify writes, with the whole length, when over it', () => {
    const value = megabyte();
    const whole = JSON.stringify(value);
    for (const cap of [0, 1, 7, 20_000]) expect(cappedJson(value, cap)).toEqual({ text: whole.slice(0, cap), length: whole.length });
    const escaped = samples.slice(7, 9);
    expect(cappedJson(escaped, 3)).toEqual({ text: JSON.stringify(escaped).slice(0, 3), length: JSON.stringify(escaped).length });
  });

  it("never writes a tool's 1 MB output whole for the model: the message holds the cap and the marker", () => {
    const output = megabyte();
    const whole = JSON.stringify({ ok: true, output }).length;
    const stringify = vi.spyOn(JSON, 'stringify');
    const message = toolMessage({ id: 'c1', name: 'rows', ok: true, output, attempts: 1, durationMs: 1 }, 20_000);
    // Only short leaves (strings with escapes) may be written by JSON.stringify; never the output or a row of it.
    for (const [argument] of stringify.mock.calls) expect(typeof argument).toBe('string');
    expect(message.content.length).toBeLessThan(20_100);
    expect(message.content).toContain(`[truncated by ambi-web: 20000 of ${whole} characters shown; ask for less]`);
  });
});
