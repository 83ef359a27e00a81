// Issue 13 (runner): limits that hold against a hostile model: max_iterations keeps effects, replies cannot amplify.
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ChatRunner,
  defineTool,
  isAmbiError,
  type MaxIterationsError,
  MemoryConversationStore,
  MemorySnapshotStore,
  type RunEvent,
} from '../../src/index.js';
import { call, finish, StepEngine, text } from '../support/engines.js';

const empty = { type: 'object', properties: {} } as const;

describe('max_iterations after an effect', () => {
  it('keeps a run whose payment went through, with a note that it stopped at the limit, so the next run does not pay again', async () => {
    let payments = 0;
    const pay = defineTool({ name: 'send_payment', description: 'x', parameters: empty, idempotent: false, call: () => `payment ${++payments} sent` });
    const conversations = new MemoryConversationStore();
    const engine = new StepEngine([
      [call('p1', 'send_payment'), finish('tool_calls')],
      [call('p2', 'send_payment'), finish('tool_calls')], // the last allowed turn still asks: not run
      [text('The payment was already sent.'), finish()],
    ]);
    const agent = (await Agent.make(engine, { conversations })).tool(pay);
    const error = await new ChatRunner().run(agent, 'pay the bill', { maxIterations: 2, conversation: 'chat' }).result.catch((e: unknown) => e);

    expect(isAmbiError(error, 'max_iterations')).toBe(true);
    expect(payments).toBe(1);
    expect((error as MaxIterationsError).toolResults).toMatchObject([{ id: 'p1', name: 'send_payment', ok: true, output: 'payment 1 sent' }]);
    const stored = await conversations.load('chat');
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(stored[2]).toMatchObject({ role: 'tool', toolCallId: 'p1' });
    expect(stored[3]).toMatchObject({ role: 'user', origin: 'runtime' });
    expect(stored[3]!.content).toMatch(/limit/);

    await new ChatRunner().run(agent, 'did it go through?', { conversation: 'chat' }).result;
    const seen = engine.requests[2]!.messages;
    expect(seen.some((m) => m.role === 'tool' && m.content.includes('payment 1 sent'))).toBe(true);
  });

  it('rolls back a run in which only idempotent calls ran, and still lists them in the error', async () => {
    const look = defineTool({ name: 'look', description: 'x', parameters: empty, idempotent: true, call: () => 'seen' });
    const conversations = new MemoryConversationStore();
    await conversations.append('chat', [{ role: 'user', content: 'earlier' }]);
    const engine = new StepEngine([
      [call('a', 'look'), finish('tool_calls')],
      [call('b', 'look'), finish('tool_calls')],
    ]);
    const agent = (await Agent.make(engine, { conversations })).tool(look);
    const error = await new ChatRunner().run(agent, 'go', { maxIterations: 2, conversation: 'chat' }).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'max_iterations')).toBe(true);
    expect((error as MaxIterationsError).toolResults).toMatchObject([{ id: 'a', ok: true, output: 'seen' }]);
    expect(await conversations.load('chat')).toEqual([{ role: 'user', content: 'earlier' }]);
  });

  it('rolls back a run whose only non-idempotent call was denied, so never ran', async () => {
    const pay = defineTool({ name: 'send_payment', description: 'x', parameters: empty, idempotent: false, needsApproval: true, call: () => 'sent' });
    const conversations = new MemoryConversationStore();
    const engine = new StepEngine([
      [call('p1', 'send_payment'), finish('tool_calls')],
      [call('p2', 'send_payment'), finish('tool_calls')],
    ]);
    const agent = (await Agent.make(engine, { conversations })).tool(pay);
    const run = new ChatRunner().run(agent, 'go', { maxIterations: 2, conversation: 'chat' });
    for await (const event of run.events) if (event.type === 'approval_requested') run.deny(event.call.id);
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'max_iterations')).toBe(true);
    expect((error as MaxIterationsError).toolResults).toMatchObject([{ id: 'p1', ok: false, error: { code: 'denied' } }]);
    expect(await conversations.load('chat')).toEqual([]);
  });

  it('keeps the run when a leaf, which may have had effects, ran', async () => {
    const conversations = new MemoryConversationStore();
    const engine = new StepEngine([
      [call('l1', 'spawn_leaf', { task: 'do it' }), finish('tool_calls')],
      [text('leaf did it'), finish()],
      [call('l2', 'spawn_leaf', { task: 'again' }), finish('tool_calls')],
    ]);
    const agent = (await Agent.make(engine, { conversations })).leaf({ store: new MemorySnapshotStore() });
    const error = await new ChatRunner().run(agent, 'go', { maxIterations: 2, conversation: 'chat' }).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'max_iterations')).toBe(true);
    expect((await conversations.load('chat')).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
  });
});

describe('replies that would amplify', () => {
  it("caps the runtime's format-error note at maxResultChars, like a tool result", async () => {
    const engine = new StepEngine(
      [
        [text('[TOOL_CALL][/TOOL_CALL]'.repeat(2_000)), finish()],
        [text('sorry'), finish()],
      ],
      false,
    );
    const agent = (await Agent.make(engine, { maxResultChars: 1_000 })).tool(
      defineTool({ name: 'look', description: 'x', parameters: empty, idempotent: true, call: () => 1 }),
    );
    await new ChatRunner().run(agent, 'go').result;
    const note = engine.requests[1]!.messages.find((m) => m.role === 'user' && m.origin === 'runtime')!;
    expect(note.content).toContain('[truncated by ambi-web: 1000 of');
    expect(note.content.length).toBeLessThan(1_200);
  });

  it('runs at most 16 calls of one reply by default; each call past it gets too_many_calls', async () => {
    let sent = 0;
    const send = defineTool({ name: 'send', description: 'x', parameters: empty, idempotent: false, call: () => ++sent });
    const engine = new StepEngine([
      [...Array.from({ length: 20 }, (_, i) => call(`s${i}`, 'send')), finish('tool_calls')],
      [text('done'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(send);
    const run = new ChatRunner().run(agent, 'go');
    const finished: RunEvent[] = [];
    for await (const event of run.events) if (event.type === 'tool_finished') finished.push(event);
    const result = await run.result;
    expect(sent).toBe(16);
    expect(result.toolResults).toHaveLength(20);
    expect(result.toolResults.slice(0, 16).every((r) => r.ok)).toBe(true);
    expect(result.toolResults.slice(16).map((r) => [r.id, !r.ok && r.error.code, r.attempts])).toEqual(
      [16, 17, 18, 19].map((i) => [`s${i}`, 'too_many_calls', 0]),
    );
    expect(finished).toHaveLength(20);
    const tools = engine.requests[1]!.messages.filter((m) => m.role === 'tool');
    expect(tools.slice(16).map((m) => JSON.parse(m.content).error.code)).toEqual(Array(4).fill('too_many_calls'));
  });

  it('takes maxCallsPerReply per run, and never starts a call past it early', async () => {
    const ran: number[] = [];
    const look = defineTool({
      name: 'look',
      description: 'x',
      parameters: { type: 'object', properties: { n: { type: 'number' } } },
      idempotent: true,
      call: ({ n }) => {
        ran.push(n ?? -1);
        return n ?? null;
      },
    });
    const engine = new StepEngine([
      [call('a', 'look', { n: 1 }), call('b', 'look', { n: 2 }), call('c', 'look', { n: 3 }), finish('tool_calls')],
      [text('done'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(look);
    const result = await new ChatRunner().run(agent, 'go', { maxCallsPerReply: 2 }).result;
    expect(ran).toEqual([1, 2]);
    expect(result.toolResults.map((r) => r.ok || r.error.code)).toEqual([true, true, 'too_many_calls']);
  });

  it.each([0, -1, 1.5, Number.NaN, Infinity])('refuses maxCallsPerReply %s with a coded error', async (maxCallsPerReply) => {
    const agent = await Agent.make(new StepEngine([]));
    let error: unknown;
    try {
      new ChatRunner().run(agent, 'go', { maxCallsPerReply });
    } catch (e) {
      error = e;
    }
    expect(isAmbiError(error, 'invalid_option')).toBe(true);
  });
});

describe('leaf({ maxDepth })', () => {
  it.each([0, -1, 1.5, Number.NaN, Infinity, '2' as unknown as number])('refuses maxDepth %s with a coded error', async (maxDepth) => {
    const agent = await Agent.make(new StepEngine([]));
    let error: unknown;
    try {
      agent.leaf({ store: new MemorySnapshotStore(), maxDepth });
    } catch (e) {
      error = e;
    }
    expect(isAmbiError(error, 'invalid_option')).toBe(true);
    expect(agent.registry.get('spawn_leaf')).toBeUndefined();
  });

  it('takes a whole maxDepth >= 1', async () => {
    const agent = await Agent.make(new StepEngine([]));
    agent.leaf({ store: new MemorySnapshotStore(), maxDepth: 3 });
    expect(agent.registry.get('spawn_leaf')).toBeDefined();
  });
});
