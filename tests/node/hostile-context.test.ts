// A context budget (`AgentOptions.context`): requests trimmed before each model turn, checked on the wire.
import { describe, expect, test } from 'vitest';
import { Agent, ChatRunner, defineTool, MemoryConversationStore, openAICompatible, type AgentOptions, type Message, type RunEvent } from '../../src/index.js';
import { call, finish, StepEngine, text } from '../support/engines.js';
import { rejection, useSseServer } from './engine-test-helpers.js';
import { textStream, type Handler } from './sse-server.js';

const local = useSseServer();

/** `pairs` earlier exchanges of about 25 tokens each way, after a system message. */
function history(pairs: number): Message[] {
  const messages: Message[] = [{ role: 'system', content: 'You are terse.' }];
  for (let i = 0; i < pairs; i++) {
    messages.push({ role: 'user', content: `question ${i}: ${'q'.repeat(80)}` });
    messages.push({ role: 'assistant', content: `answer ${i}: ${'a'.repeat(80)}` });
  }
  return messages;
}

async function agentWith(handler: Handler, stored: Message[], options: AgentOptions): Promise<{ agent: Agent; store: MemoryConversationStore }> {
  const server = await local.start(handler);
  const store = new MemoryConversationStore();
  await store.append('c', stored);
  const agent = await Agent.make(openAICompatible({ baseURL: server.baseURL, model: 'test-model' }), { conversations: store, ...options });
  return { agent, store };
}

async function eventsOf(run: { events: AsyncIterable<RunEvent>; result: Promise<unknown> }): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run.events) events.push(event);
  return events;
}

const answer: Handler = () => ({ pieces: textStream('ok') });

describe('AgentOptions.context: trimming a long conversation', () => {
  test('the oldest messages are left out of the request; the system message and the new user message stay; the store keeps all', async () => {
    const stored = history(60);
    const { agent, store } = await agentWith(answer, stored, { context: { maxTokens: 400, reserveTokens: 100 } });
    const run = new ChatRunner().run(agent, 'the new question', { conversation: 'c' });
    const events = await eventsOf(run);
    await run.result;
    const sent = local.server.requests[0]!.json.messages as Array<{ role: string; content: string }>;
    expect(sent[0]).toEqual({ role: 'system', content: 'You are terse.' });
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'the new question' });
    expect(sent.length).toBeLessThan(stored.length + 1);
    // What is kept is the newest: the last exchanges before the question, in order.
    expect(sent.at(-2)!.content).toBe(stored.at(-1)!.content);
    const trimmed = events.find((e) => e.type === 'context_trimmed');
    expect(trimmed).toEqual({
      type: 'context_trimmed',
      droppedMessages: stored.length + 1 - sent.length,
      tokensBefore: expect.any(Number),
      tokensAfter: expect.any(Number),
    });
    if (trimmed?.type !== 'context_trimmed') throw new Error('no context_trimmed event');
    expect(trimmed.tokensBefore).toBeGreaterThan(300);
    expect(trimmed.tokensAfter).toBeLessThanOrEqual(300);
    // The stored conversation is not trimmed: the whole history, the question and the answer.
    expect(await store.load('c')).toHaveLength(stored.length + 2);
  });

  test('a conversation that fits is sent whole, with no context_trimmed event', async () => {
    const { agent } = await agentWith(answer, history(2), { context: { maxTokens: 4000 } });
    const run = new ChatRunner().run(agent, 'hi', { conversation: 'c' });
    const events = await eventsOf(run);
    expect(events.some((e) => e.type === 'context_trimmed')).toBe(false);
    expect(local.server.requests[0]!.json.messages).toHaveLength(6);
  });

  test('an assistant message with calls is never split from its tool results, whatever the budget', async () => {
    const stored: Message[] = [...history(3)];
    for (let i = 0; i < 4; i++) {
      stored.push({ role: 'user', content: `look up ${i}` });
      stored.push({
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: `a${i}`, name: 'find', arguments: { i } },
          { id: `b${i}`, name: 'find', arguments: { i } },
        ],
      });
      stored.push({ role: 'tool', toolCallId: `a${i}`, name: 'find', content: JSON.stringify({ ok: true, output: 'x'.repeat(60) }) });
      stored.push({ role: 'tool', toolCallId: `b${i}`, name: 'find', content: JSON.stringify({ ok: true, output: 'y'.repeat(60) }) });
      stored.push({ role: 'assistant', content: `found ${i}` });
    }
    const server = await local.start(answer);
    let trimmedRuns = 0;
    for (let maxTokens = 60; maxTokens <= 700; maxTokens += 23) {
      const store = new MemoryConversationStore();
      await store.append('c', stored);
      const agent = await Agent.make(openAICompatible({ baseURL: server.baseURL, model: 'test-model' }), {
        conversations: store,
        context: { maxTokens, reserveTokens: 0 },
      });
      const run = new ChatRunner().run(agent, 'next', { conversation: 'c' });
      const events = await eventsOf(run);
      if (events.some((e) => e.type === 'context_trimmed')) trimmedRuns++;
      if ((await run.result.catch((e) => e)).code === 'context_overflow') continue;
      const sent = server.requests.at(-1)!.json.messages as Array<{ role: string; tool_call_id?: string; tool_calls?: Array<{ id: string }> }>;
      sent.forEach((message, at) => {
        if (message.role !== 'tool') return;
        // The nearest assistant message before it carries its call.
        const owner = sent
          .slice(0, at)
          .reverse()
          .find((m) => m.role === 'assistant');
        expect(owner?.tool_calls?.map((c) => c.id)).toContain(message.tool_call_id);
      });
      for (const message of sent) {
        if (message.role !== 'assistant' || !message.tool_calls) continue;
        for (const { id } of message.tool_calls) expect(sent.some((m) => m.role === 'tool' && m.tool_call_id === id)).toBe(true);
      }
    }
    expect(trimmedRuns).toBeGreaterThan(10);
  });

  test('within one run, older steps are dropped as results pile up, the latest results stay, and the run finishes', async () => {
    const big = defineTool({ name: 'fetch_page', description: 'x', parameters: { type: 'object' }, idempotent: true, call: () => 'p'.repeat(600) });
    const engine = new StepEngine([
      [call('c1', 'fetch_page'), finish('tool_calls')],
      [call('c2', 'fetch_page'), finish('tool_calls')],
      [call('c3', 'fetch_page'), finish('tool_calls')],
      [text('done'), finish()],
    ]);
    const agent = (await Agent.make(engine, { preamble: 'sys', context: { maxTokens: 300, reserveTokens: 0 } })).tool(big);
    const run = new ChatRunner().run(agent, 'read three pages');
    const events = await eventsOf(run);
    expect((await run.result).text).toBe('done');
    const last = engine.requests.at(-1)!.messages;
    expect(last[0]).toMatchObject({ role: 'system', content: 'sys' });
    expect(last[1]).toMatchObject({ role: 'user', content: 'read three pages' });
    // The newest call and its result are what the model answers: kept; the first ones were dropped.
    expect(last.slice(2).map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(last.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c3' });
    expect(events.filter((e) => e.type === 'context_trimmed').length).toBeGreaterThanOrEqual(2);
  });
});

describe('context_overflow', () => {
  test('a single message over the budget fails the run with context_overflow before any request', async () => {
    const { agent } = await agentWith(answer, [], { context: { maxTokens: 200 } });
    const run = new ChatRunner().run(agent, 'z'.repeat(4000));
    const events = await eventsOf(run);
    const error = await rejection(run.result);
    expect(error.code).toBe('context_overflow');
    expect(error.limit).toBe(150);
    expect(error.tokens).toBeGreaterThan(1000);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'context_overflow' } });
    expect(local.server.requests).toHaveLength(0);
  });

  test('a budget that is not one is refused with invalid_option', async () => {
    const engine = new StepEngine([]);
    await expect(Agent.make(engine, { context: { maxTokens: 0 } })).rejects.toMatchObject({ code: 'invalid_option', option: 'context' });
    await expect(Agent.make(engine, { context: { maxTokens: 100, reserveTokens: 100 } })).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(Agent.make(engine, { context: 'big' as never })).rejects.toMatchObject({ code: 'invalid_option' });
  });
});

describe("an engine's own tokenizer and context size", () => {
  /** Counts words, and says its context is 40 tokens with 10 reserved. */
  class WordEngine extends StepEngine {
    counted: string[] = [];
    async countTokens(value: string): Promise<number> {
      this.counted.push(value);
      return value.split(/\s+/).filter(Boolean).length;
    }
    async contextBudget() {
      return { maxTokens: 40, reserveTokens: 10 };
    }
  }

  test('with no budget of its own, the agent uses the engine’s, counted by the engine', async () => {
    const engine = new WordEngine([[text('ok'), finish()]]);
    const store = new MemoryConversationStore();
    // Long in characters, short in words: an estimate would trim it all away, the engine's count keeps it.
    await store.append('c', [
      { role: 'user', content: 'a b c d e f g h i j k l m n o p q r s t' },
      { role: 'assistant', content: 'x'.repeat(1000) },
      { role: 'user', content: 'short' },
      { role: 'assistant', content: 'ok' },
    ]);
    const agent = await Agent.make(engine, { conversations: store });
    const run = new ChatRunner().run(agent, 'now what', { conversation: 'c' });
    const events = await eventsOf(run);
    await run.result;
    const sent = engine.requests[0]!.messages;
    // 20 words + 3 x (1 word) + 2 words, and 4 tokens of framing each: 45 > 40 - 10; dropping the oldest (24) fits.
    expect(sent.map((m) => m.content)).toEqual(['x'.repeat(1000), 'short', 'ok', 'now what']);
    expect(events.find((e) => e.type === 'context_trimmed')).toMatchObject({ droppedMessages: 1, tokensBefore: 45, tokensAfter: 21 });
    expect(engine.counted).toContain('a b c d e f g h i j k l m n o p q r s t');
  });

  test('a native tool list counts against the budget', async () => {
    const engine = new StepEngine([[text('ok'), finish()]]);
    const long = defineTool({ name: 'long', description: 'd'.repeat(2000), parameters: { type: 'object' }, idempotent: true, call: () => 1 });
    const agent = (await Agent.make(engine, { context: { maxTokens: 300 } })).tool(long);
    const error = await rejection(new ChatRunner().run(agent, 'hi').result);
    expect(error.code).toBe('context_overflow');
    expect(engine.requests).toHaveLength(0);
  });
});
