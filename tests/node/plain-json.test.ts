import { describe, expect, it } from 'vitest';
import { isPlainJson } from '../../src/call/plain-json.js';
import { serveCall, servedTool } from '../../src/call/serve.js';
import { defineTool } from '../../src/index.js';
import { LazyAbortController } from '../../src/util/abort-source.js';

const cycle: Record<string, unknown> = { a: 1 };
cycle.self = cycle;

describe('an output that is plain JSON already', () => {
  it('is told from one that JSON would change or refuse', () => {
    for (const value of [null, 0, 'x', true, [], {}, [1, ['two', { three: null }]], JSON.parse('{"__proto__": {"x": 1}}'), Object.create(null)])
      expect(isPlainJson(value)).toBe(true);
    for (const value of [
      undefined,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      10n,
      () => 1,
      Symbol('s'),
      { a: undefined },
      new Array(3),
      new Date(0),
      new Map(),
      Object.assign(Object.create({}), { a: 1 }),
      { toJSON: () => 'x' },
      { nested: [new Number(1)] },
      cycle,
    ])
      expect(isPlainJson(value)).toBe(false);
  });

  it('is served as it is, not copied: postMessage is its one copy', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ id: i, body: 'x'.repeat(100) }));
    const dated = { at: new Date(0) };
    const tool = defineTool({
      name: 'rows',
      description: 'Rows',
      parameters: { type: 'object', properties: { dated: { type: 'boolean' } } },
      idempotent: true,
      call: ({ dated: withDate }: { dated?: boolean }) => (withDate ? dated : rows),
    });
    const ctx = { callId: 'c1', attempt: 1, idempotencyKey: 'k1' };
    expect(await serveCall(servedTool(tool), {}, ctx, new LazyAbortController())).toBe(rows);
    // One JSON would change is converted, as before.
    expect(await serveCall(servedTool(tool), { dated: true }, ctx, new LazyAbortController())).toEqual({ at: '1970-01-01T00:00:00.000Z' });
  });
});
