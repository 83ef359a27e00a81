// An attempt wires its deadline and the outer abort once its tool has been called (a call to
// another realm is posted first), and not at all for a tool that answers at once: what each
// tool sees and gets must be as if they had been wired before.
import { describe, expect, it, vi } from 'vitest';
import { defineTool } from '../../src/index.js';
import { ToolManager } from '../../src/call/tool-manager.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { Tool } from '../../src/tools/types.js';

const managerOf = (tool: Tool) => new ToolManager(new ToolRegistry().register(tool));
const call = { id: 'c1', name: 'probe', arguments: {} };

describe('an attempt wired after its call', () => {
  it('a tool that aborts the run as it is called, then answers at once, ends aborted with the reason', async () => {
    const outer = new AbortController();
    const tool = defineTool({
      name: 'probe',
      description: 'aborts its run',
      parameters: { type: 'object', properties: {} },
      idempotent: false,
      call: () => {
        outer.abort(new Error('stopped from inside'));
        return 'answered';
      },
    });
    const result = await managerOf(tool).execute(call, { signal: outer.signal });
    expect(result).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(result.ok === false && result.error.message).toContain('stopped from inside');
  });

  it('a tool that aborts the run as it is called, then answers later, ends aborted at once and its signal is aborted', async () => {
    const outer = new AbortController();
    let seen: AbortSignal | undefined;
    const tool = defineTool({
      name: 'probe',
      description: 'aborts its run',
      parameters: { type: 'object', properties: {} },
      idempotent: false,
      call: (_args, ctx) => {
        seen = ctx.signal;
        outer.abort('inside');
        return new Promise<string>(() => {}); // never settles: only the abort can end the attempt
      },
    });
    const result = await managerOf(tool).execute(call, { signal: outer.signal });
    expect(result).toMatchObject({ ok: false, error: { code: 'aborted' } });
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBe('inside');
  });

  it('a slow tool still times out on its deadline, and an outer abort still ends a running call', async () => {
    const hang = defineTool({
      name: 'probe',
      description: 'hangs',
      parameters: { type: 'object', properties: {} },
      idempotent: false,
      timeoutMs: 20,
      call: () => new Promise<string>(() => {}),
    });
    expect(await managerOf(hang).execute(call)).toMatchObject({ ok: false, error: { code: 'timeout' } });
    const outer = new AbortController();
    const running = managerOf(hang).execute(call, { signal: outer.signal });
    setTimeout(() => outer.abort('stop'), 5);
    expect(await running).toMatchObject({ ok: false, error: { code: 'aborted' } });
  });

  it('a tool that answers at once sets no deadline: no timer is armed for it', async () => {
    // Earlier tests' deadlines pass first: the one deadline timer is then armed only by what follows.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const deadlineTimers = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.filter(([, ms]) => typeof ms === 'number' && ms > 59_000);
    const quick = defineTool({
      name: 'probe',
      description: 'quick',
      parameters: { type: 'object', properties: {} },
      idempotent: true,
      timeoutMs: 60_000,
      call: () => 'ok',
    });
    const timers = vi.spyOn(globalThis, 'setTimeout');
    try {
      const manager = managerOf(quick);
      for (let i = 0; i < 5; i++) expect(await manager.execute(call)).toMatchObject({ ok: true, output: 'ok' });
      expect(deadlineTimers(timers)).toEqual([]);
      // A tool that answers later gets its deadline, as before.
      expect(await managerOf(defineTool({ ...quick, call: async () => 'ok' })).execute(call)).toMatchObject({ ok: true, output: 'ok' });
      expect(deadlineTimers(timers)).toHaveLength(1);
    } finally {
      timers.mockRestore();
    }
  });
});
