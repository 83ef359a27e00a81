// The concurrency limiter under the runner's calls: a freed slot goes to the first waiter from
// the release that frees it, in turn, past waiters whose run was aborted, and without nesting
// however many waiters take and free their slot at once.
import { describe, expect, it, vi } from 'vitest';
import { ConcurrencyBudget, Limiter } from '../../src/util/limiter.js';
import { callRun } from '../support/call-run.js';
import { Agent, ChatRunner, defineTool, type ParametersSchema, scriptedEngine } from '../../src/index.js';
import { gate } from '../support/engines.js';

/** An idempotent tool for these tests: they differ only in name, call and parameters. */
function idempotent<A>(name: string, call: (args: A) => unknown, parameters: ParametersSchema = { type: 'object' }) {
  return defineTool({ name, description: 'x', parameters, idempotent: true, call: call as never });
}

describe('Limiter', () => {
  it('hands a freed slot to the first waiter from the release itself', () => {
    const limiter = new Limiter(1);
    const order: string[] = [];
    let releaseA!: () => void;
    limiter.whenFree(
      undefined,
      (release) => (releaseA = release),
      () => order.push('A refused'),
    );
    limiter.whenFree(
      undefined,
      () => order.push('B'),
      () => order.push('B refused'),
    );
    limiter.whenFree(
      undefined,
      () => order.push('C'),
      () => order.push('C refused'),
    );
    expect(order).toEqual([]);
    releaseA();
    order.push('after release');
    // B holds the slot now (C waits on it): granted before the release returned, not in a later microtask.
    expect(order).toEqual(['B', 'after release']);
    expect(limiter.active).toBe(1);
  });

  it('skips a waiter whose signal aborted: refused with its reason, never granted, and the next one is served', async () => {
    const limiter = new Limiter(1);
    const release = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    let granted = 0;
    limiter.whenFree(
      undefined,
      () => granted++,
      () => {},
    );
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    release();
    expect(granted).toBe(1);
    expect(limiter.active).toBe(1);
  });

  it('grants at once again once the slot is freed after 20,000 waiters were refused (none left behind to wait on)', async () => {
    const limiter = new Limiter(1);
    const release = await limiter.acquire();
    const controller = new AbortController();
    let refused = 0;
    for (let i = 0; i < 20_000; i++)
      limiter.whenFree(
        controller.signal,
        () => {},
        () => refused++,
      );
    controller.abort();
    expect(refused).toBe(20_000);
    release();
    expect(limiter.active).toBe(0);
    let granted = false;
    limiter.whenFree(
      undefined,
      () => (granted = true),
      () => {},
    );
    expect(granted).toBe(true);
  });

  it('refuses at once for a signal aborted already, holding nothing', () => {
    const limiter = new Limiter(2);
    const controller = new AbortController();
    controller.abort('gone');
    const seen: unknown[] = [];
    limiter.whenFree(
      controller.signal,
      () => seen.push('granted'),
      (reason) => seen.push(reason),
    );
    expect(seen).toEqual(['gone']);
    expect(limiter.active).toBe(0);
  });

  it('serves 100,000 waiters that each free their slot at once, in order, without nesting a call per waiter', () => {
    const limiter = new Limiter(1);
    let releaseFirst!: () => void;
    limiter.whenFree(
      undefined,
      (release) => (releaseFirst = release),
      () => {},
    );
    const served: number[] = [];
    for (let i = 0; i < 100_000; i++)
      limiter.whenFree(
        undefined,
        (release) => {
          served.push(i);
          release();
        },
        () => {},
      );
    releaseFirst();
    expect(served.length).toBe(100_000);
    expect(served.every((n, i) => n === i)).toBe(true);
    expect(limiter.active).toBe(0);
  });

  it('keeps first come, first served when a slot frees while another waiter is being granted', () => {
    const limiter = new Limiter(2);
    const order: string[] = [];
    const releases: Array<() => void> = [];
    limiter.whenFree(
      undefined,
      (r) => releases.push(r),
      () => {},
    );
    limiter.whenFree(
      undefined,
      (r) => releases.push(r),
      () => {},
    );
    // B, granted first, frees the other held slot as it starts; C, then D get the two.
    limiter.whenFree(
      undefined,
      () => (order.push('B'), releases[1]!()),
      () => {},
    );
    limiter.whenFree(
      undefined,
      () => order.push('C'),
      () => {},
    );
    limiter.whenFree(
      undefined,
      () => order.push('D'),
      () => {},
    );
    releases[0]!();
    expect(order).toEqual(['B', 'C']);
    expect(limiter.active).toBe(2);
  });
});

describe('many calls queued behind one slot, of a tool that answers at once', () => {
  it('runs 20,000 of them behind one slot, in order, without a stack frame per call', async () => {
    const agent = await Agent.make(scriptedEngine([]));
    const ran: number[] = [];
    const opening = gate<string>();
    agent.tool(idempotent('gate', () => opening.promise));
    agent.tool(idempotent('now', ({ n }: { n: number }) => (ran.push(n), n), { type: 'object', properties: { n: { type: 'integer' } } }));
    const run = callRun();
    const first = agent.tools.execute({ id: 'g', name: 'gate', arguments: {} }, { run });
    const queued = Array.from({ length: 20_000 }, (_, n) => agent.tools.execute({ id: `c${n}`, name: 'now', arguments: { n } }, { run }));
    opening.open('open');
    const results = await Promise.all([first, ...queued]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(ran.length).toBe(20_000);
    expect(ran.every((n, i) => n === i)).toBe(true);
  });
});

describe('runs sharing a ConcurrencyBudget, one of them aborted while its calls wait', () => {
  it("ends the aborted run's waiting calls unstarted and lets the other runs' calls have the slot", async () => {
    const budget = new ConcurrencyBudget(1);
    const held = gate();
    const called: string[] = [];
    const make = async (tag: string, hold: boolean) =>
      (
        await Agent.make(
          scriptedEngine([
            {
              toolCalls: [
                { name: 'work', arguments: {} },
                { name: 'work', arguments: {} },
              ],
            },
            'done',
          ]),
        )
      ).tool(
        idempotent('work', async () => {
          called.push(tag);
          if (hold) await held.promise;
          return tag;
        }),
      );
    const runner = new ChatRunner({ concurrency: 2, budget });
    const holder = runner.run(await make('holder', true), 'go');
    const waiter = runner.run(await make('waiter', false), 'go');
    const waiterEnds: string[] = [];
    const reading = (async () => {
      for await (const event of waiter.events)
        if (event.type === 'tool_finished') waiterEnds.push(event.result.ok ? 'ok' : `${event.result.error.code}: ${event.result.error.message}`);
    })();
    await vi.waitFor(() => expect(called).toEqual(['holder']));
    waiter.abort(new Error('not needed'));
    await expect(waiter.result).rejects.toThrow();
    await reading;
    // Both of the aborted run's calls waited for the budget: neither ran.
    expect(waiterEnds).toEqual(['aborted: Tool "work" was aborted before it started', 'aborted: Tool "work" was aborted before it started']);
    held.open();
    expect((await holder.result).toolResults.map((r) => r.ok)).toEqual([true, true]);
    // The budget is free again: a third run's calls start at once.
    const third = await runner.run(await make('third', false), 'go').result;
    expect(third.toolResults.map((r) => (r.ok ? r.output : r.error.code))).toEqual(['third', 'third']);
    expect(called.filter((tag) => tag === 'waiter')).toEqual([]);
  });
});
