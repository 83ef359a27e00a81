// Ids and idempotency keys the SDK makes itself: unique across batches (a random prefix each
// 65,536), at a counter's cost, and every call of one reply gets its own key.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, scriptedEngine } from '../../src/index.js';
import { newCallId, newIdempotencyKey } from '../../src/util/ids.js';

describe('newCallId and newIdempotencyKey', () => {
  it('never repeat, across several prefix batches, and keep their shapes', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 150_000; i++) seen.add(i % 2 ? newCallId() : newIdempotencyKey());
    expect(seen.size).toBe(150_000);
    const keys = [...seen].filter((id) => id.startsWith('key_'));
    expect(keys.every((key) => /^key_[0-9a-f]{24}$/.test(key))).toBe(true);
    expect([...seen].filter((id) => !id.startsWith('key_')).every((id) => /^call_[0-9a-f]{24}$/.test(id))).toBe(true);
    // More than one batch went by: the prefixes differ.
    expect(new Set(keys.map((key) => key.slice(0, -4))).size).toBeGreaterThan(1);
  });

  it('a reply of many calls gives each its own key', async () => {
    const keys: string[] = [];
    const echo = defineTool({
      name: 'echo',
      description: 'x',
      parameters: { type: 'object', properties: { n: { type: 'number' } } },
      idempotent: true,
      call: ({ n }, ctx) => {
        keys.push(`${n}:${ctx.idempotencyKey}`);
        return n;
      },
    });
    const calls = Array.from({ length: 50 }, (_, n) => ({ name: 'echo', arguments: { n } }));
    const agent = (await Agent.make(scriptedEngine([{ toolCalls: calls }, 'done']))).tool(echo);
    const result = await new ChatRunner().run(agent, 'go', { maxCallsPerReply: 50 }).result;
    expect(result.toolResults).toHaveLength(50);
    expect(new Set(keys.map((entry) => entry.split(':')[1])).size).toBe(50);
  });
});
