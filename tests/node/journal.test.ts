import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, MemoryConversationStore, MemoryToolCallJournal, type Message, type ToolResult } from '../../src/index.js';
import { StorageError, type ToolCallJournal } from '../../src/extend/index.js';
import { call, finish, StepEngine, text } from '../support/engines.js';

const empty = { type: 'object', properties: {} } as const;

describe('tool-call journal', () => {
  it('records a non-idempotent call as started before it runs and succeeded after, under its idempotency key', async () => {
    const journal = new MemoryToolCallJournal();
    const seen: Array<string | undefined> = [];
    let key = '';
    const charge = defineTool({
      name: 'charge',
      description: 'x',
      parameters: empty,
      idempotent: false,
      call: async (_a, ctx) => {
        key = ctx.idempotencyKey;
        seen.push((await journal.get(ctx.idempotencyKey))?.state);
        return 'charged';
      },
    });
    const engine = new StepEngine([
      [call('c1', 'charge'), finish('tool_calls')],
      [text('ok'), finish()],
    ]);
    const agent = (await Agent.make(engine, { journal })).tool(charge);
    await new ChatRunner().run(agent, 'go', { conversation: 'conv' }).result;
    expect(seen).toEqual(['started']);
    expect(await journal.get(key)).toMatchObject({
      state: 'succeeded',
      callId: 'c1',
      name: 'charge',
      conversation: 'conv',
      result: { ok: true, output: 'charged' },
    });
  });

  it('does not journal idempotent calls', async () => {
    const journal = new MemoryToolCallJournal();
    let key = '';
    const read = defineTool({
      name: 'read',
      description: 'x',
      parameters: empty,
      idempotent: true,
      call: (_a, ctx) => {
        key = ctx.idempotencyKey;
        return 1;
      },
    });
    const agent = (
      await Agent.make(
        new StepEngine([
          [call('c1', 'read'), finish()],
          [text('ok'), finish()],
        ]),
        { journal },
      )
    ).tool(read);
    await new ChatRunner().run(agent, 'go').result;
    expect(key).not.toBe('');
    expect(await journal.get(key)).toBeUndefined();
  });

  it('does not run a consequential call whose journal entry cannot be written', async () => {
    let ran = 0;
    const broken: ToolCallJournal = {
      begin: async () => {
        throw new StorageError('disk full', { code: 'storage_quota' });
      },
      finish: async () => {},
      get: async () => undefined,
    };
    const charge = defineTool({ name: 'charge', description: 'x', parameters: empty, idempotent: false, call: () => ++ran });
    const agent = (
      await Agent.make(
        new StepEngine([
          [call('c1', 'charge'), finish()],
          [text('ok'), finish()],
        ]),
        { journal: broken },
      )
    ).tool(charge);
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(ran).toBe(0);
    expect(result.toolResults).toMatchObject([{ ok: false, error: { code: 'storage_quota' }, attempts: 0 }]);
  });
});

describe('resuming a conversation cut off mid-batch', () => {
  /** The state a crash leaves: the reply with its calls stored, its results not. */
  async function crashedConversation(journal: MemoryToolCallJournal) {
    const conversations = new MemoryConversationStore();
    const reply: Message = {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'pay', name: 'charge', arguments: {}, idempotencyKey: 'k-pay' },
        { id: 'mail', name: 'notify', arguments: {}, idempotencyKey: 'k-mail' },
        { id: 'later', name: 'charge', arguments: {}, idempotencyKey: 'k-later' },
      ],
    };
    await conversations.append('conv', [{ role: 'user', content: 'pay and notify' }, reply]);
    await journal.begin({ idempotencyKey: 'k-pay', callId: 'pay', name: 'charge', arguments: {}, conversation: 'conv' });
    const sent: ToolResult = { id: 'mail', name: 'notify', ok: true, output: 'sent', attempts: 1, durationMs: 3 };
    await journal.begin({ idempotencyKey: 'k-mail', callId: 'mail', name: 'notify', arguments: {}, conversation: 'conv' });
    await journal.finish('k-mail', sent);
    return conversations;
  }

  it('never runs a call left started again: the model is told its outcome is unknown', async () => {
    const journal = new MemoryToolCallJournal();
    const conversations = await crashedConversation(journal);
    let charges = 0;
    const charge = defineTool({ name: 'charge', description: 'x', parameters: empty, idempotent: false, call: () => ++charges });
    const notify = defineTool({ name: 'notify', description: 'x', parameters: empty, idempotent: false, call: () => 'again' });
    const engine = new StepEngine([[text('I will check the payment first.'), finish()]]);
    const agent = (await Agent.make(engine, { journal, conversations })).tool(charge).tool(notify);
    await new ChatRunner().run(agent, 'did it work?', { conversation: 'conv' }).result;

    expect(charges).toBe(0);
    const sent = engine.requests[0]!.messages;
    const results = sent.filter((m) => m.role === 'tool').map((m) => [m.role === 'tool' && m.toolCallId, JSON.parse(m.content)]);
    expect(results).toEqual([
      ['pay', { ok: false, error: { code: 'outcome_unknown', message: expect.stringContaining('may or may not have taken effect') } }],
      ['mail', { ok: true, output: 'sent' }],
      ['later', { ok: false, error: { code: 'aborted', message: expect.stringContaining('did not run') } }],
    ]);
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'did it work?' });
    const stored = await conversations.load('conv');
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'tool', 'user', 'assistant']);
  });

  /** What the resumed run tells the model about each dangling call, by call id. */
  async function repairedCodes(journal: ToolCallJournal | undefined): Promise<Array<[string, string]>> {
    const conversations = await crashedConversation(new MemoryToolCallJournal());
    const engine = new StepEngine([[text('Checking.'), finish()]]);
    const agent = await Agent.make(engine, { conversations, ...(journal ? { journal } : {}) });
    await new ChatRunner().run(agent, 'did it work?', { conversation: 'conv' }).result;
    return engine.requests[0]!.messages.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, JSON.parse(m.content).error.code]] : []));
  }

  it('tells the model the outcome is unknown, never that a call did not run, when the journal cannot be read', async () => {
    const unreadable: ToolCallJournal = {
      begin: async () => {},
      finish: async () => {},
      get: async () => {
        throw new StorageError('database closed', { code: 'storage_error' });
      },
    };
    expect(await repairedCodes(unreadable)).toEqual([
      ['pay', 'outcome_unknown'],
      ['mail', 'outcome_unknown'],
      ['later', 'outcome_unknown'],
    ]);
  });

  it("tells the model an idempotent tool's dangling call has an unknown outcome: such calls are never journaled, so no entry proves nothing", async () => {
    const journal = new MemoryToolCallJournal();
    const conversations = await crashedConversation(journal);
    const charge = defineTool({ name: 'charge', description: 'x', parameters: empty, idempotent: true, call: () => 'charged' });
    const engine = new StepEngine([[text('Checking.'), finish()]]);
    const agent = (await Agent.make(engine, { journal, conversations })).tool(charge);
    await new ChatRunner().run(agent, 'did it work?', { conversation: 'conv' }).result;
    const codes = engine.requests[0]!.messages.flatMap((m) => (m.role === 'tool' ? [[m.toolCallId, JSON.parse(m.content).error?.code ?? 'ok']] : []));
    expect(codes).toEqual([
      ['pay', 'outcome_unknown'],
      ['mail', 'ok'],
      ['later', 'outcome_unknown'],
    ]);
  });

  it('tells the model the outcome is unknown, never that a call did not run, when no journal is kept', async () => {
    expect(await repairedCodes(undefined)).toEqual([
      ['pay', 'outcome_unknown'],
      ['mail', 'outcome_unknown'],
      ['later', 'outcome_unknown'],
    ]);
  });
});
