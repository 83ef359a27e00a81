// Issue 13: invalid arguments are refused before they reach a person or the journal.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, MemoryToolCallJournal, type RunEvent } from '../../src/index.js';
import { call, finish, StepEngine, text } from '../support/engines.js';

const schema = { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] } as const;

/** `{ n: { n: … } }`, `levels` objects deep, built without recursion. */
function nested(levels: number): unknown {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { n: value };
  return value;
}

async function runOne(args: unknown, needsApproval: boolean, conversation: string | null = 'chat') {
  let ran = 0;
  const send = defineTool({ name: 'send', description: 'x', parameters: schema, idempotent: false, needsApproval, call: () => `sent ${++ran}` });
  const journal = new MemoryToolCallJournal();
  const engine = new StepEngine([
    [call('c1', 'send', args), finish('tool_calls')],
    [text('done'), finish()],
  ]);
  const agent = (await Agent.make(engine, { journal, validation: 'no-eval' })).tool(send);
  const run = new ChatRunner().run(agent, 'go', conversation ? { conversation } : {});
  const events: RunEvent[] = [];
  for await (const event of run.events) {
    events.push(event);
    if (event.type === 'approval_requested') run.approve(event.call.id);
  }
  const result = await run.result;
  return { ran, result, events, entries: await journal.listByConversation('chat') };
}

describe('a consequential call with invalid arguments', () => {
  it('is refused as invalid_arguments without asking the person', async () => {
    const { ran, result, events } = await runOne({ to: 42 }, true);
    expect(ran).toBe(0);
    expect(events.some((e) => e.type === 'approval_requested')).toBe(false);
    expect(result.toolResults).toMatchObject([{ id: 'c1', ok: false, error: { code: 'invalid_arguments' }, attempts: 0 }]);
  });

  it('is never written to the journal', async () => {
    const { ran, result, entries } = await runOne({ to: ['bob'] }, false);
    expect(ran).toBe(0);
    expect(result.toolResults).toMatchObject([{ id: 'c1', ok: false, error: { code: 'invalid_arguments' } }]);
    expect(entries).toEqual([]);
  });

  it('too deep to record is invalid_arguments, not a journal failure', async () => {
    const { ran, result } = await runOne(nested(100_000), false, null);
    expect(ran).toBe(0);
    expect(result.toolResults).toMatchObject([{ id: 'c1', ok: false, error: { code: 'invalid_arguments', message: expect.stringMatching(/64 levels/) } }]);
  });

  it('too deep to store leaves a stored, sendable transcript and the run goes on', async () => {
    const { ran, result } = await runOne(nested(100_000), false, 'chat');
    expect(ran).toBe(0);
    expect(result.text).toBe('done');
    const assistant = result.messages.find((m) => m.role === 'assistant' && m.toolCalls);
    expect(assistant).toMatchObject({ toolCalls: [{ id: 'c1', arguments: expect.stringMatching(/not kept.*64 levels/) }] });
    expect(() => JSON.stringify(result.messages)).not.toThrow();
  });

  it('with valid arguments is journaled and runs once', async () => {
    const { ran, result, entries } = await runOne({ to: 'bob' }, true);
    expect(ran).toBe(1);
    expect(result.toolResults).toMatchObject([{ id: 'c1', ok: true, output: 'sent 1' }]);
    expect(entries).toMatchObject([{ callId: 'c1', name: 'send', state: 'succeeded' }]);
  });
});
