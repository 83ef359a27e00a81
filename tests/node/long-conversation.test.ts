// A run with a context budget on a long stored conversation reads only the end a request can hold
// (ConversationStore.loadTail), and sends exactly what reading the whole conversation would have sent.
import { describe, expect, test } from 'vitest';
import { Agent, ChatRunner, defineTool, MemoryConversationStore, type AgentOptions, type Message, type RunEvent, type RunResult } from '../../src/index.js';
import type { ConversationStore } from '../../src/extend/index.js';
import type { ConversationTail } from '../../src/store/memory-conversation-store.js';
import { call, finish, StepEngine, text, type Step } from '../support/engines.js';
import { approvedRemove } from '../support/tools.js';

/** A memory store that counts what it reads. */
class CountingStore extends MemoryConversationStore {
  loads = 0;
  tailReads: Array<{ count: number; read: number }> = [];
  override async load(id: string): Promise<Message[]> {
    this.loads++;
    return super.load(id);
  }
  override async loadTail(id: string, count: number): Promise<ConversationTail> {
    const tail = await super.loadTail(id, count);
    this.tailReads.push({ count, read: tail.messages.length + (tail.first ? 1 : 0) });
    return tail;
  }
}

/** The same conversations, with no `loadTail`: what every run read before. */
function wholeReads(store: MemoryConversationStore): ConversationStore {
  return { load: (id) => store.load(id), append: (id, m) => store.append(id, m), truncate: (id, n) => store.truncate(id, n) };
}

/** `cycles` exchanges after a system message, each a question, a call, its result and an answer (about 90 tokens). */
function conversation(cycles: number): Message[] {
  const out: Message[] = [{ role: 'system', content: 'You keep notes.' }];
  for (let i = 0; i < cycles; i++) {
    const id = `old_${i}`;
    out.push(
      { role: 'user', content: `Find my note about topic ${i}, please.` },
      { role: 'assistant', content: '', toolCalls: [{ id, name: 'search', arguments: { query: `topic ${i}` } }] },
      { role: 'tool', toolCallId: id, name: 'search', content: JSON.stringify({ ok: true, output: `Topic ${i}: ${'lorem ipsum '.repeat(8)}` }) },
      { role: 'assistant', content: `Your note on topic ${i} says lorem ipsum.` },
    );
  }
  return out;
}

const search = defineTool({
  name: 'search',
  description: 'Search the notes.',
  parameters: { type: 'object', properties: { query: { type: 'string' } } },
  idempotent: true,
  call: ({ query }) => `found ${String(query)}`,
});

const send = defineTool({
  name: 'send',
  description: 'Send a message.',
  parameters: { type: 'object', properties: {} },
  idempotent: false,
  call: () => 'sent',
});

async function eventsOf(run: { events: AsyncIterable<RunEvent> }): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run.events) events.push(event);
  return events;
}

interface Outcome {
  requests: Message[][];
  events: RunEvent[];
  result: RunResult;
  stored: Message[];
}

/** One run of `replies` on a copy of `stored`, read through `read` (the store itself, or it with whole reads only). */
async function runOn(
  stored: Message[],
  replies: Step[][],
  read: (store: CountingStore) => ConversationStore,
  options: AgentOptions = {},
): Promise<Outcome & { store: CountingStore; loads: number }> {
  const store = new CountingStore();
  await store.append('c', stored);
  store.loads = 0;
  const engine = new StepEngine(replies);
  const agent = (await Agent.make(engine, { conversations: read(store), context: { maxTokens: 2000 }, ...options })).tool(search).tool(send);
  const run = new ChatRunner().run(agent, 'And the note about topic 7?', { conversation: 'c' });
  const events = await eventsOf(run);
  const result = await run.result;
  const loads = store.loads;
  return { requests: engine.requests.map((r) => [...r.messages]), events, result, stored: await store.load('c'), store, loads };
}

/** What a run sends, trims and stores, whatever it read: the same for both outcomes. */
function expectSameRun(windowed: Outcome, whole: Outcome): void {
  expect(keyless(windowed.requests)).toEqual(keyless(whole.requests));
  const trims = (o: Outcome) => o.events.flatMap((e) => (e.type === 'context_trimmed' ? [e.droppedMessages] : []));
  expect(trims(windowed)).toEqual(trims(whole));
  expect(trims(windowed).length).toBeGreaterThan(0);
  expect(keyless(windowed.stored)).toEqual(keyless(whole.stored));
  expect(windowed.result.text).toBe(whole.result.text);
  expect(windowed.result.toolResults.map((r) => r.ok)).toEqual(whole.result.toolResults.map((r) => r.ok));
}

/** `value` without the idempotency keys of calls, which every run draws anew. */
function keyless<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === 'idempotencyKey' ? undefined : v)));
}

const callThenAnswer = (): Step[][] => [
  [call('n1', 'search', { query: 'topic 7' }), finish('tool_calls')],
  [text('It says lorem ipsum.'), finish()],
];

describe('a run on a long conversation with a context budget', () => {
  test('reads only the end (never the whole), and sends, trims and stores exactly what a whole read would', async () => {
    const stored = conversation(2500);
    const windowed = await runOn(stored, callThenAnswer(), (store) => store);
    const whole = await runOn(stored, callThenAnswer(), wholeReads);
    expectSameRun(windowed, whole);
    expect(windowed.loads).toBe(0);
    const read = windowed.store.tailReads.reduce((sum, r) => sum + r.read, 0);
    // 10,001 stored messages; the budget (1,500 tokens for the prompt) holds about 70 of them.
    expect(read).toBeLessThan(400);
    expect(whole.loads).toBe(1);
  });

  test('RunResult holds the system prompt and the end it read; skippedMessages counts the rest', async () => {
    const stored = conversation(2500);
    const { result, stored: after } = await runOn(stored, callThenAnswer(), (store) => store);
    expect(result.messages[0]).toEqual({ role: 'system', content: 'You keep notes.' });
    expect(result.skippedMessages).toBeGreaterThan(9000);
    expect(result.messages.length + result.skippedMessages!).toBe(after.length);
    // What it holds is the conversation's end, as stored.
    expect(result.messages.slice(1)).toEqual(after.slice(result.skippedMessages! + 1));
    expect(result.messages.at(-1)).toEqual({ role: 'assistant', content: 'It says lorem ipsum.' });
  });

  test('a conversation that fits the budget is read and returned whole, with no skippedMessages', async () => {
    const { result, stored: after, store } = await runOn(conversation(3), [[text('ok'), finish()]], (s) => s);
    expect(result.messages).toEqual(after);
    expect(result.skippedMessages).toBeUndefined();
    expect(store.tailReads).toHaveLength(1);
  });

  test('the next run on the same conversation reads about what the last one kept, in one read', async () => {
    const stored = conversation(2500);
    const store = new CountingStore();
    await store.append('c', stored);
    const engine = new StepEngine([
      [text('one'), finish()],
      [text('two'), finish()],
    ]);
    const agent = await Agent.make(engine, { conversations: store, context: { maxTokens: 2000 } });
    const runner = new ChatRunner();
    await runner.run(agent, 'first', { conversation: 'c' }).result;
    const first = store.tailReads.length;
    await runner.run(agent, 'second', { conversation: 'c' }).result;
    expect(store.tailReads.length - first).toBe(1);
    expect(engine.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'second' });
  });

  test('a last reply with a long batch of results is read back to its call: never split, same request as a whole read', async () => {
    const stored = conversation(200);
    const ids = Array.from({ length: 400 }, (_, i) => `batch_${i}`);
    stored.push({ role: 'user', content: 'Search everything.' });
    stored.push({ role: 'assistant', content: '', toolCalls: ids.map((id) => ({ id, name: 'search', arguments: { query: id } })) });
    for (const id of ids) stored.push({ role: 'tool', toolCallId: id, name: 'search', content: `result ${id} ${'x'.repeat(120)}` });
    stored.push({ role: 'assistant', content: 'Done searching.' });
    const replies = (): Step[][] => [[text('ok'), finish()]];
    const windowed = await runOn(stored, replies(), (store) => store, { context: { maxTokens: 4000, reserveTokens: 0 } });
    const whole = await runOn(stored, replies(), wholeReads, { context: { maxTokens: 4000, reserveTokens: 0 } });
    expectSameRun(windowed, whole);
    // The batch of 400 results is more than the first read holds: it was read again, further back, to its call.
    expect(windowed.store.tailReads.length).toBeGreaterThan(1);
    const last = windowed.store.tailReads.at(-1)!;
    expect(last.read).toBeGreaterThan(ids.length + 2);
  });

  test('calls left without results by an interrupted run are repaired from the end it read', async () => {
    const stored = conversation(2500);
    stored.push({ role: 'user', content: 'Send it twice.' });
    stored.push({
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'd1', name: 'send', arguments: {} },
        { id: 'd2', name: 'send', arguments: {} },
      ],
    });
    stored.push({ role: 'tool', toolCallId: 'd1', name: 'send', content: '{"ok":true,"output":"sent"}' });
    const windowed = await runOn(stored, [[text('ok'), finish()]], (store) => store);
    const whole = await runOn(stored, [[text('ok'), finish()]], wholeReads);
    expectSameRun(windowed, whole);
    const repaired = windowed.stored.find((m) => m.role === 'tool' && m.toolCallId === 'd2');
    expect(repaired?.content).toContain('outcome_unknown');
  });

  test('max_iterations with nothing that had effects rolls the stored conversation back to its length before the run', async () => {
    const stored = conversation(2500);
    const store = new CountingStore();
    await store.append('c', stored);
    const engine = new StepEngine([[call('n1', 'search', { query: 'x' }), finish('tool_calls')]]);
    const agent = (await Agent.make(engine, { conversations: store, context: { maxTokens: 2000 } })).tool(search);
    const run = new ChatRunner().run(agent, 'loop', { conversation: 'c', maxIterations: 1 });
    await expect(run.result).rejects.toMatchObject({ code: 'max_iterations' });
    expect(await store.load('c')).toEqual(stored);
  });

  test("an engine's own context size and tokenizer: only what was read is counted", async () => {
    class WordEngine extends StepEngine {
      counted = 0;
      async countTokens(value: string): Promise<number> {
        this.counted++;
        return value.split(/\s+/).filter(Boolean).length;
      }
      async contextBudget() {
        return { maxTokens: 1000, reserveTokens: 200 };
      }
    }
    const store = new CountingStore();
    await store.append('c', conversation(2500));
    const engine = new WordEngine([[text('ok'), finish()]]);
    const agent = await Agent.make(engine, { conversations: store });
    const run = new ChatRunner().run(agent, 'hello', { conversation: 'c' });
    const events = await eventsOf(run);
    const result = await run.result;
    expect(store.loads).toBe(0);
    expect(result.skippedMessages).toBeGreaterThan(9000);
    expect(engine.counted).toBeLessThan(1000);
    const trimmed = events.find((e) => e.type === 'context_trimmed');
    // Every stored message left out is counted as dropped, those never read included.
    expect(trimmed).toMatchObject({ droppedMessages: 10_002 - engine.requests[0]!.messages.length });
  });
  test('a run suspended at an approval on a long conversation: pendingApprovals and resume read only its end', async () => {
    const store = new CountingStore();
    await store.append('c', conversation(2500));
    const ran: string[] = [];
    const first = (
      await Agent.make(new StepEngine([[call('del', 'remove', { note: 'old' }), finish('tool_calls')]]), { conversations: store, context: { maxTokens: 2000 } })
    ).tool(approvedRemove(ran));
    const run = new ChatRunner().run(first, 'remove the old note', { conversation: 'c' });
    for await (const event of run.events) if (event.type === 'approval_requested') run.suspend();
    await expect(run.result).rejects.toMatchObject({ code: 'suspended' });

    store.loads = 0;
    const engine = new StepEngine([[text('Removed it.'), finish()]]);
    const again = (await Agent.make(engine, { conversations: store, context: { maxTokens: 2000 } })).tool(approvedRemove(ran));
    const runner = new ChatRunner();
    expect(await runner.pendingApprovals(again, 'c')).toMatchObject([{ callId: 'del', call: { name: 'remove', arguments: { note: 'old' } } }]);
    const resumed = runner.resume(again, 'c');
    for await (const event of resumed.events) if (event.type === 'approval_requested') resumed.approve(event.call.id);
    const result = await resumed.result;
    expect(result.text).toBe('Removed it.');
    expect(ran).toEqual(['old']);
    expect(result.skippedMessages).toBeGreaterThan(9000);
    expect(store.loads).toBe(0);
    expect(engine.requests[0]!.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'del' });
  });
});
