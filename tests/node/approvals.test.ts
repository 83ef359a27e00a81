import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, isAmbiError, scriptedEngine } from '../../src/index.js';
import type { RunScope } from '../../src/extend/index.js';
import { Approvals } from '../../src/call/approvals.js';

describe('Approvals', () => {
  it('answers the call with the decided id, and only once', async () => {
    const approvals = new Approvals();
    const signal = new AbortController().signal;
    const first = approvals.wait('call_1', signal);
    const second = approvals.wait('call_2', signal);
    expect(approvals.decide('call_2', { approved: true })).toBe(true);
    expect(approvals.decide('call_2', { approved: true })).toBe(false);
    expect(approvals.decide('call_1', { approved: false, reason: 'no' })).toBe(true);
    expect(await first).toEqual({ approved: false, reason: 'no' });
    expect(await second).toEqual({ approved: true });
  });

  it('refuses a second wait on an id that already waits (ids are unique per run), with a coded error', async () => {
    const approvals = new Approvals();
    const signal = new AbortController().signal;
    const first = approvals.wait('call_1', signal);
    const error = await approvals.wait('call_1', signal).catch((e: unknown) => e);
    expect(isAmbiError(error, 'duplicate_call_id')).toBe(true);
    expect(approvals.decide('call_1', { approved: true })).toBe(true);
    expect(await first).toEqual({ approved: true });
  });

  it('forgets an aborted wait', async () => {
    const approvals = new Approvals();
    const leaving = new AbortController();
    const aborted = approvals.wait('call_1', leaving.signal);
    leaving.abort('left');
    await expect(aborted).rejects.toBe('left');
    expect(approvals.decide('call_1', { approved: true })).toBe(false);
  });
});

it("a tool's ctx.run does not hand out the run's approvals", async () => {
  let seen: RunScope | undefined;
  const peek = defineTool({
    name: 'peek',
    description: 'x',
    parameters: { type: 'object' },
    idempotent: true,
    call: (_args, ctx) => {
      seen = ctx.run;
      return 'ok';
    },
  });
  const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ name: 'peek', arguments: {} }] }, 'done']))).tool(peek);
  await new ChatRunner().run(agent, 'go').result;
  expect(seen).toBeDefined();
  expect(Object.keys(seen!).sort()).toEqual(['concurrency', 'depth', 'emit', 'messages', 'runId']);
});
