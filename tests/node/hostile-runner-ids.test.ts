// Issue 13 (runner): call ids are unique within a run, its leaves included, whatever ids the model gives.
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ChatRunner,
  defineTool,
  MemorySnapshotStore,
  MemoryToolCallJournal,
  MemoryConversationStore,
  type Message,
  type Run,
  type RunEvent,
  type ToolCall,
} from '../../src/index.js';
import type { ConversationStore } from '../../src/extend/index.js';
import { call, finish, StepEngine, text } from '../support/engines.js';
import { approvedRemove, noteSchema } from '../support/tools.js';

/** Read `run`'s events; once `count` approval cards are up, hand them to `decide`. */
async function answerCards(run: Run, count: number, decide: (cards: Array<Extract<RunEvent, { type: 'approval_requested' }>>) => void): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  const cards: Array<Extract<RunEvent, { type: 'approval_requested' }>> = [];
  for await (const event of run.events) {
    events.push(event);
    if (event.type === 'approval_requested') {
      cards.push(event);
      if (cards.length === count) decide(cards);
    }
  }
  return events;
}

describe('call ids within a run', () => {
  it('approving the second of two calls that share an id runs exactly that call, and denying the first runs nothing else', async () => {
    const ran: string[] = [];
    const engine = new StepEngine([
      [call('x', 'remove', { note: 'first' }), call('x', 'remove', { note: 'second' }), finish('tool_calls')],
      [text('done'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(approvedRemove(ran));
    const run = new ChatRunner().run(agent, 'go');
    const events = await answerCards(run, 2, ([first, second]) => {
      run.approve(second!.call.id);
      run.deny(first!.call.id, 'not that one');
    });
    const result = await run.result;
    expect(ran).toEqual(['second']);
    const cards = events.flatMap((e) => (e.type === 'approval_requested' ? [e.call] : []));
    expect(cards.map((c) => (c.arguments as { note: string }).note)).toEqual(['first', 'second']);
    // The first keeps the model's id; the second gets one of its own.
    expect(cards[0]!.id).toBe('x');
    expect(cards[1]!.id).not.toBe('x');
    expect(result.toolResults.map((r) => [r.id, r.ok])).toEqual([
      [cards[0]!.id, false],
      [cards[1]!.id, true],
    ]);
  });

  it('gives every event, the stored assistant message, the tool messages and the journal the id the runner gave', async () => {
    const conversations = new MemoryConversationStore();
    const journal = new MemoryToolCallJournal();
    const send = defineTool({ name: 'send', description: 'x', parameters: noteSchema, idempotent: false, call: ({ note }) => `sent ${note}` });
    const engine = new StepEngine([
      [call('x', 'send', { note: 'a' }), call('x', 'send', { note: 'b' }), finish('tool_calls')],
      [text('done'), finish()],
    ]);
    const agent = (await Agent.make(engine, { conversations, journal })).tool(send);
    const run = new ChatRunner().run(agent, 'go', { conversation: 'chat' });
    const events: RunEvent[] = [];
    for await (const event of run.events) events.push(event);
    await run.result;

    const stored = await conversations.load('chat');
    const assistant = stored.find((m) => m.role === 'assistant' && m.toolCalls)! as Extract<Message, { role: 'assistant' }>;
    const ids = assistant.toolCalls!.map((c) => c.id);
    expect(ids[0]).toBe('x');
    expect(new Set(ids).size).toBe(2);
    expect(stored.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, JSON.parse(m.content).output]] : []))).toEqual([
      [ids[0], 'sent a'],
      [ids[1], 'sent b'],
    ]);
    expect(events.flatMap((e) => (e.type === 'tool_call' ? [e.call.id] : []))).toEqual(ids);
    expect(events.flatMap((e) => (e.type === 'tool_started' ? [e.callId] : []))).toEqual(ids);
    expect(events.flatMap((e) => (e.type === 'tool_finished' ? [e.result.id] : []))).toEqual(ids);
    // The model's next request pairs each result with its own call.
    const next = engine.requests[1]!.messages;
    expect(next.flatMap((m) => (m.role === 'assistant' && m.toolCalls ? m.toolCalls.map((c) => c.id) : []))).toEqual(ids);
    expect(next.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []))).toEqual(ids);
    const entries = await Promise.all(assistant.toolCalls!.map((c) => journal.get(c.idempotencyKey!)));
    expect(entries.map((e) => e?.callId)).toEqual(ids);
  });

  it('renames an id the model reuses from an earlier reply of the same run', async () => {
    const read = defineTool({ name: 'read', description: 'x', parameters: noteSchema, idempotent: true, call: ({ note }) => note ?? null });
    const engine = new StepEngine([
      [call('x', 'read', { note: 'one' }), finish('tool_calls')],
      [call('x', 'read', { note: 'two' }), finish('tool_calls')],
      [text('done'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(read);
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults.map((r) => r.ok && r.output)).toEqual(['one', 'two']);
    expect(result.toolResults[0]!.id).toBe('x');
    expect(result.toolResults[1]!.id).not.toBe('x');
  });
});

describe('calls that share an id do not share a result', () => {
  it('runs a write that shares its id with a read, and gives each call its own result', async () => {
    const ran: string[] = [];
    const read = defineTool({
      name: 'read',
      description: 'x',
      parameters: noteSchema,
      idempotent: true,
      call: () => {
        ran.push('read');
        return 'read it';
      },
    });
    const write = defineTool({
      name: 'write',
      description: 'x',
      parameters: noteSchema,
      idempotent: false,
      call: () => {
        ran.push('write');
        return 'wrote it';
      },
    });
    const engine = new StepEngine([
      [call('x', 'read'), call('x', 'write'), finish('tool_calls')],
      [text('done'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(read).tool(write);
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(ran.sort()).toEqual(['read', 'write']);
    expect(result.toolResults.map((r) => [r.name, r.ok && r.output])).toEqual([
      ['read', 'read it'],
      ['write', 'wrote it'],
    ]);
    expect(result.toolResults[0]!.id).not.toBe(result.toolResults[1]!.id);
  });

  it('gives two early-started reads with one id and different arguments their own outputs', async () => {
    const read = defineTool({ name: 'read', description: 'x', parameters: noteSchema, idempotent: true, call: ({ note }) => `page ${note}` });
    const engine = new StepEngine([
      [call('x', 'read', { note: '1' }), call('x', 'read', { note: '2' }), finish('tool_calls')],
      [text('done'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(read);
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults.map((r) => r.ok && r.output)).toEqual(['page 1', 'page 2']);
    const tools = engine.requests[1]!.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => JSON.parse(m.content).output)).toEqual(['page 1', 'page 2']);
  });

  it('gives two tagged calls their own results when a stream carries them', async () => {
    const read = defineTool({ name: 'read', description: 'x', parameters: noteSchema, idempotent: true, call: ({ note }) => `page ${note}` });
    const tagged = '[TOOL_CALL]{"name":"read","args":{"note":"1"}}[/TOOL_CALL][TOOL_CALL]{"name":"read","args":{"note":"2"}}[/TOOL_CALL]';
    const engine = new StepEngine(
      [
        [text(tagged), finish()],
        [text('done'), finish()],
      ],
      false,
    );
    const agent = (await Agent.make(engine)).tool(read);
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults.map((r) => r.ok && r.output)).toEqual(['page 1', 'page 2']);
  });
});

describe('call ids across a parent and its leaves', () => {
  it("approves and denies exactly the parent's or the leaf's call when a server numbers calls per reply", async () => {
    const ran: string[] = [];
    const engine = new StepEngine([
      // The parent's reply: a leaf, and a call that waits for approval.
      [call('call_0', 'spawn_leaf', { task: 'tidy up' }), call('call_1', 'remove', { note: 'parent' }), finish('tool_calls')],
      // The leaf's reply, numbered from call_0 again.
      [call('call_0', 'remove', { note: 'leaf zero' }), call('call_1', 'remove', { note: 'leaf one' }), finish('tool_calls')],
      [text('leaf done'), finish()],
      [text('parent done'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(approvedRemove(ran)).leaf({ store: new MemorySnapshotStore() });
    const run = new ChatRunner().run(agent, 'go');
    const events = await answerCards(run, 3, (cards) => {
      // Decide the last card first and the first card last: each decision must reach its own card.
      const byNote = (note: string) => cards.find((c) => (c.call.arguments as { note: string }).note === note)!;
      run.approve(byNote('leaf one').call.id);
      run.deny(byNote('leaf zero').call.id);
      run.deny(byNote('parent').call.id);
    });
    await run.result;
    expect(ran).toEqual(['leaf one']);
    const calls = events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
    expect(calls).toHaveLength(4);
    expect(new Set(calls.map((c) => c.id)).size).toBe(4);
    expect(calls.slice(0, 2).map((c) => c.id)).toEqual(['call_0', 'call_1']);
  });

  it("gives a leaf's calls ids unique against the parent run's, in the leaf's transcript too", async () => {
    const store = new MemorySnapshotStore();
    const read = defineTool({ name: 'read', description: 'x', parameters: noteSchema, idempotent: true, call: ({ note }) => note ?? null });
    const engine = new StepEngine([
      [call('call_0', 'read', { note: 'parent' }), call('call_1', 'spawn_leaf', { task: 'look' }), finish('tool_calls')],
      [call('call_0', 'read', { note: 'leaf' }), call('call_1', 'read', { note: 'leaf again' }), finish('tool_calls')],
      [text('leaf done'), finish()],
      [text('parent done'), finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(read).leaf({ store });
    const run = new ChatRunner().run(agent, 'go');
    const leafIds: string[] = [];
    for await (const event of run.events) if (event.type === 'tool_call' && event.leafId) leafIds.push(event.call.id);
    await run.result;
    expect(leafIds).toHaveLength(2);
    expect(leafIds).not.toContain('call_0');
    expect(leafIds).not.toContain('call_1');
    const [snapshot] = await store.list();
    const leafReply = snapshot!.messages.find((m) => m.role === 'assistant' && m.toolCalls)! as Extract<Message, { role: 'assistant' }>;
    expect(leafReply.toolCalls!.map((c) => c.id)).toEqual(leafIds);
    expect(snapshot!.messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])).slice(-2)).toEqual(leafIds);
  });
});

/** A store that refuses to append tool results, as a page that closes mid-batch leaves a conversation. */
class CutOffStore implements ConversationStore {
  readonly inner = new MemoryConversationStore();
  cut = true;
  load(id: string) {
    return this.inner.load(id);
  }
  truncate(id: string, length: number) {
    return this.inner.truncate(id, length);
  }
  async append(id: string, messages: readonly Message[]) {
    if (this.cut && messages.some((m) => m.role === 'tool')) throw new Error('the page closed');
    return this.inner.append(id, messages);
  }
}

describe('repairing an interrupted reply whose calls shared an id', () => {
  it('gives each renamed call of the interrupted reply its own repaired result', async () => {
    const conversations = new CutOffStore();
    const journal = new MemoryToolCallJournal();
    const sent: string[] = [];
    const send = defineTool({
      name: 'send',
      description: 'x',
      parameters: noteSchema,
      idempotent: false,
      call: ({ note }) => {
        sent.push(note ?? '');
        return 'sent';
      },
    });
    const engine = new StepEngine([
      [call('x', 'send', { note: 'a' }), call('x', 'send', { note: 'b' }), finish('tool_calls')],
      [text('noted'), finish()],
    ]);
    const agent = (await Agent.make(engine, { conversations, journal })).tool(send);
    await new ChatRunner().run(agent, 'go', { conversation: 'chat' }).result.catch(() => {});
    conversations.cut = false;
    await new ChatRunner().run(agent, 'what happened?', { conversation: 'chat' }).result;

    const stored = await conversations.load('chat');
    const reply = stored.find((m) => m.role === 'assistant' && m.toolCalls)! as Extract<Message, { role: 'assistant' }>;
    const ids = reply.toolCalls!.map((c: ToolCall) => c.id);
    expect(new Set(ids).size).toBe(2);
    expect(sent).toEqual(['a', 'b']);
    // Both calls ran and were journaled: each gets its own recorded result, under its own id.
    const repaired = stored.filter((m) => m.role === 'tool');
    expect(repaired.map((m) => m.role === 'tool' && [m.toolCallId, JSON.parse(m.content).ok])).toEqual([
      [ids[0], true],
      [ids[1], true],
    ]);
  });
});
