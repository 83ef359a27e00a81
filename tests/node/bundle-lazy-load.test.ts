// Code that only some runs need loads with `import()` on first need (util/load-once.ts): the
// callers waiting for one load resume in the order they asked, and a failed load is tried again.
import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from '../../src/util/load-once.js';
import { approvedRemove } from '../support/tools.js';

describe('loadOnce', () => {
  it('loads once and gives every caller the same module', async () => {
    let loads = 0;
    const load = loadOnce(async () => ({ n: ++loads }));
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(loads).toBe(1);
  });

  it('resumes its callers in the order they asked', async () => {
    let release!: (value: string) => void;
    const load = loadOnce(() => new Promise<string>((resolve) => (release = resolve)));
    const order: number[] = [];
    const waits = [1, 2, 3].map(async (n) => {
      await load();
      order.push(n);
    });
    release('module');
    await Promise.all(waits);
    expect(order).toEqual([1, 2, 3]);
  });

  it('tries a failed load again on the next call', async () => {
    let attempt = 0;
    const load = loadOnce(async () => {
      attempt++;
      if (attempt === 1) throw new Error('offline');
      return 'module';
    });
    await expect(load()).rejects.toThrow('offline');
    expect(await load()).toBe('module');
  });
});

describe('approvals while their code loads', () => {
  it('calls of one reply that need approval are asked in call order, the first time asking loads', async () => {
    vi.resetModules();
    const { Agent, ChatRunner, scriptedEngine } = await import('../../src/index.js');
    const ran: string[] = [];
    const calls = ['a', 'b', 'c'].map((note) => ({ id: note, name: 'remove', arguments: { note } }));
    const agent = (await Agent.make(scriptedEngine([{ toolCalls: calls }, 'done']))).tool(approvedRemove(ran));
    const run = new ChatRunner().run(agent, 'go');
    const asked: string[] = [];
    for await (const event of run.events) {
      if (event.type !== 'approval_requested') continue;
      asked.push(event.call.id);
      run.approve(event.call.id);
    }
    await run.result;
    expect(asked).toEqual(['a', 'b', 'c']);
    expect(ran).toEqual(['a', 'b', 'c']);
  });
});
