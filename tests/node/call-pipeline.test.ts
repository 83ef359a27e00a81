// The call pipeline (src/call/execute.ts), one contract per stage, driven through its public face,
// ToolManager.execute, with a run's side of the call (`run`) where the stage belongs to a run.
import { describe, expect, it } from 'vitest';
import { ConcurrencyBudget, defineTool, MemoryToolCallJournal, type RunEvent, type Tool, ToolError, ToolManager, ToolRegistry } from '../../src/index.js';
import { Limiter } from '../../src/util/limiter.js';
import { callRun } from '../support/call-run.js';
import { gate } from '../support/engines.js';

const object = { type: 'object', properties: { n: { type: 'integer', minimum: 0 } }, required: ['n'], additionalProperties: false } as const;

function managerOf(...tools: Tool[]): ToolManager {
  const registry = new ToolRegistry({ validation: 'no-eval' });
  for (const tool of tools) registry.register(tool);
  return new ToolManager(registry);
}

function counted(name: string, spec: Partial<Parameters<typeof defineTool>[0]> = {}) {
  const calls: unknown[] = [];
  const tool = defineTool({
    name,
    description: 'x',
    parameters: object,
    idempotent: true,
    call: (args) => {
      calls.push(args);
      return { ran: (args as { n: number }).n };
    },
    ...spec,
  } as Parameters<typeof defineTool>[0]);
  return { tool, calls };
}

describe('stage 1, decode', () => {
  it('reads absent arguments as {}, parses JSON text, and refuses text that is not JSON as invalid_arguments, unrun', async () => {
    const { tool, calls } = counted('t', { parameters: { type: 'object' } });
    const tools = managerOf(tool);
    expect(await tools.execute({ id: 'a', name: 't', arguments: undefined })).toMatchObject({ ok: true });
    expect(await tools.execute({ id: 'b', name: 't', arguments: '{"x": 1}' })).toMatchObject({ ok: true });
    expect(await tools.execute({ id: 'c', name: 't', arguments: '{"x": ' })).toMatchObject({ ok: false, attempts: 0, error: { code: 'invalid_arguments' } });
    expect(calls).toEqual([{}, { x: 1 }]);
  });

  it('refuses arguments nested past 64 levels before any validator sees them', async () => {
    const { tool, calls } = counted('t', { parameters: { type: 'object' } });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 100; i++) deep = { a: deep };
    const result = await managerOf(tool).execute({ id: 'a', name: 't', arguments: deep });
    expect(result).toMatchObject({ ok: false, attempts: 0, error: { code: 'invalid_arguments', message: expect.stringContaining('64 levels') } });
    expect(calls).toEqual([]);
  });
});

describe('stage 3, validate', () => {
  it('checks the arguments against the schema and names every problem; the tool never sees invalid ones', async () => {
    const { tool, calls } = counted('t');
    const result = await managerOf(tool).execute({ id: 'a', name: 't', arguments: { n: -1, extra: true } });
    expect(result).toMatchObject({ ok: false, attempts: 0, error: { code: 'invalid_arguments' } });
    expect(result.ok || result.error.message).toMatch(/n.*>= 0|minimum/);
    expect(calls).toEqual([]);
  });
});

describe('stage 2, screen', () => {
  it('a refusal from an extension ends the call with its code, unrun, before validation', async () => {
    const { tool, calls } = counted('t');
    const run = callRun({
      hooks: { before: () => ({ kind: 'refuse', code: 'untrusted_refused', message: 'not after reading a page' }), after: (_call, r) => r },
    });
    // Arguments that would not validate: the refusal comes first.
    expect(await managerOf(tool).execute({ id: 'a', name: 't', arguments: { n: -1 } }, { run })).toMatchObject({
      ok: false,
      attempts: 0,
      error: { code: 'untrusted_refused', message: 'not after reading a page' },
    });
    expect(calls).toEqual([]);
  });

  it('arguments an extension puts in are what is validated and run', async () => {
    const { tool, calls } = counted('t');
    const seen: unknown[] = [];
    const putIn = (n: number) => callRun({ hooks: { before: (_call, args) => (seen.push(args), { kind: 'run', arguments: { n } }), after: (_c, r) => r } });
    const tools = managerOf(tool);
    expect(await tools.execute({ id: 'a', name: 't', arguments: { n: { $held: '$1' } } }, { run: putIn(7) })).toMatchObject({ ok: true, output: { ran: 7 } });
    expect(await tools.execute({ id: 'b', name: 't', arguments: { n: 1 } }, { run: putIn(-1) })).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments' },
    });
    expect(seen).toEqual([{ n: { $held: '$1' } }, { n: 1 }]);
    expect(calls).toEqual([{ n: 7 }]);
  });

  it('an extension that throws ends the call with its code, unrun', async () => {
    const { tool, calls } = counted('t');
    const broken = callRun({
      hooks: {
        before: () => {
          throw Object.assign(new Error('held store gone'), { code: 'storage_error' });
        },
        after: (_c, r) => r,
      },
    });
    const result = await managerOf(tool).execute({ id: 'a', name: 't', arguments: { n: 1 } }, { run: broken });
    expect(result).toMatchObject({ ok: false, attempts: 0, error: { code: 'crashed', message: expect.stringContaining('held store gone') } });
    expect(calls).toEqual([]);
  });
});

describe('stage 4, policy', () => {
  it('a call continued after an interruption runs with its recorded decision, unasked, or is asked again though its tool never asks', async () => {
    const { tool, calls } = counted('t');
    const events: RunEvent[] = [];
    const run = callRun({ emit: (event) => events.push(event) });
    const tools = managerOf(tool);
    const decided = { decision: { approved: true, arguments: { n: 4 } } };
    expect(await tools.execute({ id: 'a', name: 't', arguments: { n: 1 } }, { run, recorded: decided })).toMatchObject({ ok: true, editedArguments: { n: 4 } });
    const denied = await tools.execute({ id: 'b', name: 't', arguments: { n: 1 } }, { run, recorded: { decision: { approved: false, reason: 'no' } } });
    expect(denied).toMatchObject({ ok: false, error: { code: 'denied' } });
    const asked = tools.execute({ id: 'c', name: 't', arguments: { n: 2 } }, { run, recorded: { asked: true } });
    await expect.poll(() => events.some((e) => e.type === 'approval_requested')).toBe(true);
    run.approvals.decide('c', { approved: true });
    expect(await asked).toMatchObject({ ok: true });
    expect(calls).toEqual([{ n: 4 }, { n: 2 }]);
  });

  it('a continued call acts where its record says it was proposed, never where its tool would name now', async () => {
    const places: unknown[] = [];
    const { tool } = counted('t', { call: (_args: unknown, ctx: { target?: unknown }) => (places.push(ctx.target), 'ok') });
    const tools = managerOf({ ...tool, target: () => ({ page: 'now' }) });
    await tools.execute({ id: 'a', name: 't', arguments: { n: 1 } }, { run: callRun(), recorded: { target: { page: 'then' } } });
    await tools.execute({ id: 'b', name: 't', arguments: { n: 1 } }, { run: callRun() });
    expect(places).toEqual([{ page: 'then' }, { page: 'now' }]);
  });

  it('a call that asks waits for the person: approved it runs, denied it does not, and an extension can ask for a tool that never asks', async () => {
    const { tool, calls } = counted('t');
    const events: RunEvent[] = [];
    const run = callRun({ emit: (event) => events.push(event), hooks: { before: async () => ({ kind: 'ask' }), after: (_call, result) => result } });
    const tools = managerOf(tool);
    const first = tools.execute({ id: 'a', name: 't', arguments: { n: 1 } }, { run });
    await expect.poll(() => events.some((e) => e.type === 'approval_requested')).toBe(true);
    run.approvals.decide('a', { approved: true });
    expect(await first).toMatchObject({ ok: true, output: { ran: 1 } });
    const second = tools.execute({ id: 'b', name: 't', arguments: { n: 2 } }, { run });
    await expect.poll(() => events.filter((e) => e.type === 'approval_requested').length).toBe(2);
    run.approvals.decide('b', { approved: false, reason: 'no' });
    expect(await second).toMatchObject({ ok: false, attempts: 0, error: { code: 'denied', message: expect.stringContaining('no') } });
    expect(calls).toEqual([{ n: 1 }]);
  });

  it('a rule that returns anything truthy asks, and so does a rule that throws', async () => {
    for (const rule of [
      () => 'yes' as unknown as boolean,
      () => 1 as unknown as boolean,
      (): boolean => {
        throw new Error('cannot tell');
      },
    ]) {
      const { tool, calls } = counted('t', { needsApproval: rule });
      const events: RunEvent[] = [];
      const run = callRun({ emit: (event) => events.push(event) });
      const running = managerOf(tool).execute({ id: 'a', name: 't', arguments: { n: 1 } }, { run });
      await expect.poll(() => events.some((e) => e.type === 'approval_requested')).toBe(true);
      expect(calls).toEqual([]);
      run.approvals.decide('a', { approved: false });
      await running;
    }
  });
});

describe('stage 5, slots', () => {
  it('holds a call until a slot of the run and of the shared budget is free, and frees both when it ends', async () => {
    const held = gate<string>();
    const { tool: slow } = counted('slow', { call: () => held.promise });
    const { tool: next, calls } = counted('next');
    const budget = new ConcurrencyBudget(1);
    const own = new Limiter(5);
    const run = callRun({ limiters: [own, budget] });
    const tools = managerOf(slow, next);
    const first = tools.execute({ id: 'a', name: 'slow', arguments: { n: 0 } }, { run });
    const second = tools.execute({ id: 'b', name: 'next', arguments: { n: 1 } }, { run });
    await expect.poll(() => budget.active).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual([]);
    held.open('done');
    await Promise.all([first, second]);
    expect(calls).toEqual([{ n: 1 }]);
    expect([own.active, budget.active]).toEqual([0, 0]);
  });

  it('a call still waiting for a slot when the run aborts ends aborted, unstarted', async () => {
    const held = gate<string>();
    const { tool: slow } = counted('slow', { call: () => held.promise });
    const { tool: next, calls } = counted('next');
    const controller = new AbortController();
    const run = callRun({ signal: controller.signal });
    const tools = managerOf(slow, next);
    const first = tools.execute({ id: 'a', name: 'slow', arguments: { n: 0 } }, { run });
    const second = tools.execute({ id: 'b', name: 'next', arguments: { n: 1 } }, { run });
    controller.abort();
    expect(await second).toMatchObject({ ok: false, attempts: 0, error: { code: 'aborted', message: expect.stringContaining('before it started') } });
    held.open('late');
    await first;
    expect(calls).toEqual([]);
  });
});

describe('stage 6, journal', () => {
  it('records a non-idempotent call as started before it runs and with its result after; an idempotent one not at all', async () => {
    const journal = new MemoryToolCallJournal();
    const states: string[] = [];
    const send = counted('send', { idempotent: false, call: async () => (states.push((await journal.get('k1'))?.state ?? 'none'), 'sent') }).tool;
    const read = counted('read').tool;
    const run = callRun({ journal });
    const tools = managerOf(send, read);
    await tools.execute({ id: 'a', name: 'send', arguments: { n: 1 }, idempotencyKey: 'k1' }, { run });
    await tools.execute({ id: 'b', name: 'read', arguments: { n: 1 }, idempotencyKey: 'k2' }, { run });
    expect(states).toEqual(['started']);
    expect(await journal.get('k1')).toMatchObject({ state: 'succeeded', result: { ok: true, output: 'sent' } });
    expect(await journal.get('k2')).toBeUndefined();
  });

  it('does not run a journalled call whose record cannot be written', async () => {
    const { tool, calls } = counted('send', { idempotent: false });
    const journal = new MemoryToolCallJournal();
    journal.begin = async () => {
      throw new Error('disk full');
    };
    const result = await managerOf(tool).execute({ id: 'a', name: 'send', arguments: { n: 1 } }, { run: callRun({ journal }) });
    expect(result).toMatchObject({ ok: false, attempts: 0, error: { message: expect.stringContaining('journal entry could not be written') } });
    expect(calls).toEqual([]);
  });

  it('journals a call a person approved, even of an idempotent tool', async () => {
    const journal = new MemoryToolCallJournal();
    const { tool } = counted('t', { needsApproval: true });
    const events: RunEvent[] = [];
    const run = callRun({ journal, emit: (event) => events.push(event) });
    const running = managerOf(tool).execute({ id: 'a', name: 't', arguments: { n: 1 }, idempotencyKey: 'k' }, { run });
    await expect.poll(() => events.length).toBeGreaterThan(0);
    run.approvals.decide('a', { approved: true });
    await running;
    expect(await journal.get('k')).toMatchObject({ state: 'succeeded' });
  });
});

describe('stage 7, attempt', () => {
  it('retries an idempotent tool after a timeout with the same key, never a non-idempotent one, never a tool error', async () => {
    const keys: string[] = [];
    const slow = (idempotent: boolean) =>
      counted(idempotent ? 'slow' : 'slow_once', {
        idempotent,
        timeoutMs: 10,
        retryDelayMs: 0,
        maxRetries: 2,
        call: (_args: unknown, ctx: { idempotencyKey: string }) => (keys.push(ctx.idempotencyKey), new Promise(() => {})),
      }).tool;
    const failing = counted('failing', { timeoutMs: 10, retryDelayMs: 0, maxRetries: 2, call: () => Promise.reject(new ToolError('no such order')) }).tool;
    const tools = managerOf(slow(true), slow(false), failing);
    expect(await tools.execute({ id: 'a', name: 'slow', arguments: { n: 1 }, idempotencyKey: 'k' })).toMatchObject({
      ok: false,
      attempts: 3,
      error: { code: 'timeout' },
    });
    expect(keys).toEqual(['k', 'k', 'k']);
    expect(await tools.execute({ id: 'b', name: 'slow_once', arguments: { n: 1 } })).toMatchObject({ ok: false, attempts: 1, error: { code: 'timeout' } });
    expect(await tools.execute({ id: 'c', name: 'failing', arguments: { n: 1 } })).toMatchObject({
      ok: false,
      attempts: 1,
      error: { code: 'tool_error', message: 'no such order' },
    });
  });
});

describe('stage 8, result', () => {
  it('goes through the extensions once and is reported once, with its duration rounded to a tenth of a millisecond', async () => {
    const { tool } = counted('t');
    const seen: string[] = [];
    const events: RunEvent[] = [];
    const run = callRun({
      emit: (event) => events.push(event),
      hooks: { before: () => undefined, after: (_call, result) => (seen.push(result.id), { ...result, untrusted: true }) },
    });
    const result = await managerOf(tool).execute({ id: 'a', name: 't', arguments: { n: 1 } }, { run });
    expect(seen).toEqual(['a']);
    expect(result).toMatchObject({ untrusted: true });
    expect(events.filter((e) => e.type === 'tool_finished')).toEqual([{ type: 'tool_finished', result }]);
    expect(Math.round(result.durationMs * 10) / 10).toBe(result.durationMs);
  });

  it('an unknown tool, too, leaves through the result stage once, naming the tools there are', async () => {
    const { tool } = counted('known');
    const events: RunEvent[] = [];
    const result = await managerOf(tool).execute({ id: 'a', name: 'nope', arguments: {} }, { run: callRun({ emit: (event) => events.push(event) }) });
    expect(result).toMatchObject({ ok: false, attempts: 0, error: { code: 'unknown_tool', message: expect.stringContaining('known') } });
    expect(events).toEqual([{ type: 'tool_finished', result }]);
  });
});
