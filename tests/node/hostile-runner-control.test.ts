// Issue 13 (runner): the person keeps control: stop always stops, bad options are refused, events are read once.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, isAmbiError, MemoryConversationStore, scriptedEngine, type RunEvent } from '../../src/index.js';
import { collect, ONE_CALL_EVENT_TYPES } from '../support/run-events.js';
import { stuckApproval } from '../support/tools.js';
import { call, finish, StepEngine, text } from '../support/engines.js';

const empty = { type: 'object', properties: {} } as const;

describe('an approval rule that never settles', () => {
  it('is stopped by abort(): the result rejects with aborted and the conversation is free again', async () => {
    const { stuck, ran } = stuckApproval();
    const conversations = new MemoryConversationStore();
    const engine = new StepEngine([
      [call('s1', 'stuck'), finish('tool_calls')],
      [text('free again'), finish()],
    ]);
    const agent = (await Agent.make(engine, { conversations })).tool(stuck);
    const run = new ChatRunner().run(agent, 'go', { conversation: 'chat' });
    const events = await collect(run, (event) => event.type === 'tool_call' && run.abort('stop pressed'));
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'aborted')).toBe(true);
    expect(ran.count).toBe(0);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'aborted' } });
    // The lock was let go: a run that refuses to wait for it gets it.
    const next = await new ChatRunner().run(agent, 'again', { conversation: 'chat', lock: 'fail' }).result;
    expect(next.text).toBe('free again');
    const stored = await conversations.load('chat');
    expect(stored.find((m) => m.role === 'tool')).toMatchObject({ toolCallId: 's1' });
  });
});

describe("conversation ''", () => {
  it('is refused with a coded error before the run takes any lock', async () => {
    const conversations = new MemoryConversationStore();
    const agent = await Agent.make(scriptedEngine(['hi']), { conversations });
    let error: unknown;
    try {
      new ChatRunner().run(agent, 'go', { conversation: '' });
    } catch (e) {
      error = e;
    }
    expect(isAmbiError(error, 'invalid_option')).toBe(true);
    expect(await conversations.load('')).toEqual([]);
  });
});

describe('run.events', () => {
  it('refuses a second reader while one reads, with a coded error, and the first still gets every event', async () => {
    const agent = await Agent.make(scriptedEngine(['hello']));
    const run = new ChatRunner().run(agent, 'go');
    const first: RunEvent[] = [];
    const reading = (async () => {
      for await (const event of run.events) first.push(event);
    })();
    await Promise.resolve();
    let error: unknown;
    try {
      for await (const _event of run.events) {
        // a second reader gets nothing
      }
    } catch (e) {
      error = e;
    }
    expect(isAmbiError(error, 'events_busy')).toBe(true);
    await reading;
    expect(first.at(-1)?.type).toBe('run_finished');
    expect(first.map((e) => e.type)).toContain('run_started');
  });

  it('keeps the rest of a batch for the next reader when a reader breaks out early', async () => {
    const look = defineTool({ name: 'look', description: 'x', parameters: empty, idempotent: true, call: () => 'seen' });
    const agent = (await Agent.make(scriptedEngine([{ text: 'Looking.', toolCalls: [{ name: 'look', arguments: {} }] }, 'Done.']))).tool(look);
    const run = new ChatRunner().run(agent, 'go');
    await run.result; // every event is queued now: one batch
    const firstReader: RunEvent[] = [];
    for await (const event of run.events) {
      firstReader.push(event);
      if (firstReader.length === 2) break;
    }
    const secondReader: RunEvent[] = [];
    for await (const event of run.events) secondReader.push(event);
    const all = [...firstReader, ...secondReader];
    expect(firstReader.map((e) => e.type)).toEqual(['run_started', 'text_delta']);
    // An idempotent tool starts early, while the reply streams: it is done before the reply's usage.
    const early = ['run_started', 'text_delta', 'tool_call', 'tool_started', 'tool_finished', 'usage', ...ONE_CALL_EVENT_TYPES.slice(6)];
    expect(all.map((e) => e.type)).toEqual(early);
  });
});
