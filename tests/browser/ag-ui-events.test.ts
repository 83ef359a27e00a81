// Issue 34: a run's events as AG-UI 1.0 events, checked by AG-UI's own packages in real Chromium:
// each event against @ag-ui/core's zod schemas, each run through @ag-ui/client (an AbstractAgent
// whose run() is toAgUiEvents over a WorkerRunner, so the client's verification and interrupt
// handling apply), and the event order through @ag-ui/client's verifyEvents.
import { AbstractAgent, type BaseEvent, type RunAgentInput, verifyEvents } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { from, lastValueFrom, type Observable, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { type AgUiEvent, type AgUiRun, toAgUiEvents } from '../../src/ag-ui/index.js';
import { defineTool, type ScriptedReply, ToolError, type WorkerRunner } from '../../src/index.js';
import type { ConversationRunner } from '../../src/ai-sdk/index.js';
import { freshDatabases } from '../support/fresh-databases.js';
import { callOf, openRunners } from '../support/worker-runners.js';

const runners = openRunners();
const databases = freshDatabases('ag-ui');
afterEach(async () => {
  runners.closeAll();
  await databases.deleteAll();
});

/** Every event the agent produced, checked against AG-UI's schema for its type. */
const produced: AgUiEvent[] = [];
afterEach(() => {
  for (const event of produced.splice(0)) expect(EventSchemas.safeParse(event).error, `${event.type} ${JSON.stringify(event)}`).toBeUndefined();
});

async function* recorded(events: AsyncIterable<AgUiEvent>): AsyncGenerator<AgUiEvent> {
  for await (const event of events) {
    produced.push(event);
    yield event;
  }
}

/**
 * An AG-UI agent over a runner: a new input runs its last user message on the thread's
 * conversation; an input with `resume` answers the interrupts the thread's run ended with.
 */
class AmbiAgent extends AbstractAgent {
  readonly #runs = new Map<string, AgUiRun>();
  constructor(
    private readonly runner: ConversationRunner,
    threadId: string,
  ) {
    super({ threadId });
  }

  run(input: RunAgentInput): Observable<BaseEvent> {
    const events = input.resume?.length ? this.#runs.get(input.threadId)!.resume(input.resume, { runId: input.runId }) : this.#start(input);
    // Our events are AG-UI's wire format; @ag-ui/core types `type` as its own enum.
    return from(recorded(events)) as unknown as Observable<BaseEvent>;
  }

  /** Continue a run of this thread that was cut off (a reload): its waiting calls become interrupts again. */
  resumeStored(run: ReturnType<ConversationRunner['resume']>): void {
    this.#runs.set(this.threadId, toAgUiEvents(run, { threadId: this.threadId }));
  }

  storedRun(): AgUiRun | undefined {
    return this.#runs.get(this.threadId);
  }

  #start(input: RunAgentInput): AgUiRun {
    const last = input.messages.at(-1);
    const run = this.runner.run(typeof last?.content === 'string' ? last.content : '', { conversation: input.threadId });
    const events = toAgUiEvents(run, { threadId: input.threadId, runId: input.runId });
    this.#runs.set(input.threadId, events);
    return events;
  }
}

/** A page list the tools work on. */
function listRunner(replies: ScriptedReply[], items: string[], database?: string): { runner: WorkerRunner; items: string[] } {
  const runner = runners.runnerWith(replies, database ? { database } : {});
  runner.tool(
    defineTool({
      name: 'add_item',
      description: 'Add an item',
      parameters: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'], additionalProperties: false },
      idempotent: false,
      call: ({ item }) => {
        items.push(item);
        return { items: [...items] };
      },
    }),
  );
  runner.tool(
    defineTool({
      name: 'clear_list',
      description: 'Empty the list',
      parameters: { type: 'object', properties: { keep: { type: 'string' } }, additionalProperties: false },
      idempotent: false,
      needsApproval: true,
      call: ({ keep }) => {
        const removed = items.splice(0).filter((item) => item !== keep);
        if (keep) items.push(keep);
        return { removed };
      },
    }),
  );
  return { runner, items };
}

const types = (events: readonly AgUiEvent[]) => events.map((e) => e.type);

async function collect(events: AsyncIterable<AgUiEvent>): Promise<AgUiEvent[]> {
  const all: AgUiEvent[] = [];
  for await (const event of recorded(events)) all.push(event);
  return all;
}

/** The events through @ag-ui/client's own order checks (it errors on a broken sequence). */
const verified = (events: readonly AgUiEvent[]) => lastValueFrom(from(events as unknown as BaseEvent[]).pipe(verifyEvents(), toArray()));

describe('toAgUiEvents through @ag-ui/client (WorkerRunner, scripted engine)', () => {
  it('a run with text, a page tool and an approval: an interrupt outcome, a resume that approves, then success', async () => {
    const { runner, items } = listRunner(
      [{ text: 'Adding it.', toolCalls: [{ id: 'add-1', name: 'add_item', arguments: { item: 'milk' } }] }, callOf('clear_list', {}, 'clear-1'), 'All done.'],
      [],
    );
    const agent = new AmbiAgent(runner, 'thread-1');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Add milk, then empty the list' });

    await agent.runAgent({ runId: 'agui-run-1' });
    expect(types(produced)).toEqual([
      'RUN_STARTED',
      'STEP_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'TOOL_CALL_RESULT',
      'STEP_FINISHED',
      'STEP_STARTED',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    expect(produced[0]).toMatchObject({ type: 'RUN_STARTED', threadId: 'thread-1', runId: 'agui-run-1', protocolVersion: '1.0' });
    expect(produced.at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'interrupt', interrupts: [{ id: 'clear-1', reason: 'tool_call', toolCallId: 'clear-1' }] },
    });
    expect(agent.pendingInterrupts).toMatchObject([{ id: 'clear-1', toolCallId: 'clear-1', responseSchema: { required: ['approved'] } }]);
    expect(items).toEqual(['milk']);

    const before = produced.length;
    await agent.runAgent({ runId: 'agui-run-2', resume: [{ interruptId: 'clear-1', status: 'resolved', payload: { approved: true } }] });
    const second = produced.slice(before);
    // The call's result comes against its original id; its START is not repeated (AG-UI's rule for tool-bound interrupts).
    expect(types(second)).toEqual([
      'RUN_STARTED',
      'STEP_STARTED',
      'TOOL_CALL_RESULT',
      'STEP_FINISHED',
      'STEP_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    expect(second.at(-1)).toMatchObject({ type: 'RUN_FINISHED', runId: 'agui-run-2', outcome: { type: 'success' }, result: 'All done.' });
    expect(agent.pendingInterrupts).toEqual([]);
    expect(items).toEqual([]);
    // The client built the conversation from the events: calls on assistant messages, results as tool messages.
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(agent.messages[1]).toMatchObject({
      content: 'Adding it.',
      toolCalls: [{ id: 'add-1', function: { name: 'add_item', arguments: '{"item":"milk"}' } }],
    });
    expect(agent.messages[4]).toMatchObject({ role: 'tool', toolCallId: 'clear-1', content: '{"removed":["milk"]}' });
    expect(agent.messages[5]).toMatchObject({ role: 'assistant', content: 'All done.' });
  });

  it('a failing tool is a TOOL_CALL_RESULT with its code; an engine error is RUN_ERROR with the code', async () => {
    const runner = runners.runnerWith([callOf('broken', {}, 'b-1'), { error: { status: 503, message: 'upstream down' } }]);
    runner.tool(
      defineTool({
        name: 'broken',
        description: 'Always fails',
        parameters: { type: 'object' },
        idempotent: true,
        call: () => {
          throw new ToolError('the disk is full');
        },
      }),
    );
    const agent = new AmbiAgent(runner, 'thread-err');
    agent.addMessage({ id: 'u1', role: 'user', content: 'Try it' });
    await agent.runAgent().catch(() => undefined);

    expect(produced.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({
      toolCallId: 'b-1',
      content: 'tool_error: the disk is full',
      metadata: { error: 'tool_error' },
    });
    expect(produced.at(-1)).toMatchObject({ type: 'RUN_ERROR', code: 'http_error' });
    expect((produced.at(-1) as { message: string }).message).toContain('503');
    await expect(verified(produced)).resolves.toHaveLength(produced.length);
  });

  it('a run cut off by a reload: its stored run, resumed on a new runner, ends with the interrupt again and a resume finishes it', async () => {
    const database = databases.fresh();
    const items = ['tea', 'rice'];
    const first = listRunner([callOf('clear_list', {}, 'clear-r')], items, database);
    const before = new AmbiAgent(first.runner, 'kitchen');
    before.addMessage({ id: 'u1', role: 'user', content: 'Empty the list' });
    await before.runAgent();
    expect(before.pendingInterrupts.map((i) => i.id)).toEqual(['clear-r']);
    first.runner.close();

    const second = listRunner(['Emptied after the reload.'], items, database);
    const after = new AmbiAgent(second.runner, 'kitchen');
    after.resumeStored(second.runner.resume('kitchen'));
    const again = await collect(after.storedRun()!);
    expect(again.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'interrupt', interrupts: [{ id: 'clear-r' }] } });
    await after.runAgent({ resume: [{ interruptId: 'clear-r', status: 'resolved', payload: { approved: true } }] });
    expect(produced.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' }, result: 'Emptied after the reload.' });
    expect(items).toEqual([]);
  });
});

describe('toAgUiEvents: resumes AG-UI refuses, edits, cancel and abort', () => {
  /** A run that waits on clear-1, read to its interrupt. */
  async function waiting(replies: ScriptedReply[], items: string[]) {
    const { runner } = listRunner([callOf('clear_list', {}, 'clear-1'), ...replies], items);
    const run = runner.run('Empty the list', { conversation: 'hostile' });
    const events = toAgUiEvents(run, { threadId: 'hostile' });
    const first = await collect(events);
    expect(events.interrupts.map((i) => i.id)).toEqual(['clear-1']);
    return { run, events, first };
  }

  it('an unknown interrupt id, a missing entry, a bad payload and a second answer are each RUN_ERROR with a code; nothing is decided until a good resume', async () => {
    const items = ['salt'];
    const { events, first } = await waiting(['Kept salt.'], items);
    const refusals: [unknown, string][] = [
      [[{ interruptId: 'no-such-call', status: 'resolved', payload: { approved: true } }], 'unknown_approval'],
      [[], 'invalid_resume'],
      [[{ interruptId: 'clear-1', status: 'resolved', payload: { approved: 'yes' } }], 'invalid_resume'],
      [[{ interruptId: 'clear-1', status: 'resolved' }], 'invalid_resume'],
      [[{ interruptId: 'clear-1', status: 'resolved', payload: { approved: true, editedArgs: [1] } }], 'invalid_resume'],
      [
        [
          { interruptId: 'clear-1', status: 'cancelled' },
          { interruptId: 'clear-1', status: 'resolved', payload: { approved: true } },
        ],
        'invalid_resume',
      ],
      [[{ interruptId: '__proto__', status: 'resolved', payload: { approved: true } }], 'unknown_approval'],
      ['not an array', 'invalid_resume'],
    ];
    for (const [entries, code] of refusals) {
      const refused = await collect(events.resume(entries as never));
      expect(types(refused)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
      expect(refused[1]).toMatchObject({ code });
      await expect(verified(refused)).resolves.toHaveLength(2);
    }
    expect(items).toEqual(['salt']);
    expect(events.interrupts.map((i) => i.id)).toEqual(['clear-1']);

    // Approved with edited arguments (a full replacement): the tool gets them.
    const done = await collect(events.resume([{ interruptId: 'clear-1', status: 'resolved', payload: { approved: true, editedArgs: { keep: 'salt' } } }]));
    expect(done.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ toolCallId: 'clear-1', content: '{"removed":[]}' });
    expect(done.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' }, result: 'Kept salt.' });
    expect(items).toEqual(['salt']);
    await expect(verified([...first, ...done])).resolves.toHaveLength(first.length + done.length);
    // Nothing is open any more.
    expect(types(await collect(events.resume([{ interruptId: 'clear-1', status: 'resolved', payload: { approved: true } }])))).toEqual([
      'RUN_STARTED',
      'RUN_ERROR',
    ]);
  });

  it('a denial (resolved with approved: false, or cancelled) reaches deny(): the result says denied and the list stays', async () => {
    for (const entry of [
      { interruptId: 'clear-1', status: 'resolved' as const, payload: { approved: false, reason: 'not today' } },
      { interruptId: 'clear-1', status: 'cancelled' as const },
    ]) {
      const items = ['oil'];
      const { events } = await waiting(['Left it.'], items);
      const done = await collect(events.resume([entry]));
      expect(done.find((e) => e.type === 'TOOL_CALL_RESULT')).toMatchObject({ toolCallId: 'clear-1', metadata: { error: 'denied' } });
      expect(done.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
      expect(items).toEqual(['oil']);
      runners.closeAll();
    }
  });

  it('an aborted run ends its AG-UI run with the cancelled outcome, its open text and step closed', async () => {
    const runner = runners.runnerWith([{ text: 'Working on it', toolCalls: [{ id: 'w-1', name: 'wait_for_ever', arguments: {} }] }]);
    runner.tool(
      defineTool({
        name: 'wait_for_ever',
        description: 'Never ends by itself',
        parameters: { type: 'object' },
        idempotent: true,
        timeoutMs: 60_000,
        call: (_args, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      }),
    );
    const run = runner.run('Wait');
    const all: AgUiEvent[] = [];
    for await (const event of recorded(toAgUiEvents(run))) {
      all.push(event);
      if (event.type === 'TOOL_CALL_END') run.abort();
    }
    expect(all.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'cancelled' } });
    await expect(verified(all)).resolves.toHaveLength(all.length);
  });

  it('the first AG-UI run is read once: a second reader is refused with events_busy', async () => {
    const runner = runners.runnerWith(['Hello.']);
    const events = toAgUiEvents(runner.run('Hi'));
    expect(types(await collect(events))).toEqual([
      'RUN_STARTED',
      'STEP_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'STEP_FINISHED',
      'RUN_FINISHED',
    ]);
    expect(() => events[Symbol.asyncIterator]()).toThrow(expect.objectContaining({ code: 'events_busy' }));
  });
});
