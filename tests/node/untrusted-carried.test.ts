// The mark carried forward: what the model wrote in an exposed turn is marked too, so trimming the page out of a request launders nothing.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, type Message, MemoryConversationStore, openAICompatible, type RunEvent } from '../../src/index.js';
import { call, finish, StepEngine, text } from '../support/engines.js';
import { collect } from '../support/run-events.js';
import { ATTACKER, INJECTION, readPage, sendEmail } from '../support/untrusted-tools.js';
import { chunk, DONE, startSseServer } from './sse-server.js';

/** A page long enough that a request holding it and a little more is over the budget below. */
const PAGE = `Welcome to the shop. ${INJECTION} ${'Lorem ipsum dolor sit amet. '.repeat(100)}`;
/** A prompt limit of 1 000 tokens: the page (about 750) fits with the question, not with one more step of about 300. */
const BUDGET = { maxTokens: 1100, reserveTokens: 100 };

/** `check_stock`: trusted and read-only, with a long answer (the step that pushes the page out). */
const checkStock = defineTool({
  name: 'check_stock',
  description: 'Look up stock',
  parameters: { type: 'object', properties: { item: { type: 'string' } } },
  readOnly: true,
  call: () => `in stock: ${'x'.repeat(1200)}`,
});

const approvals = (events: readonly RunEvent[]) =>
  events.filter((e): e is Extract<RunEvent, { type: 'approval_requested' }> => e.type === 'approval_requested');
const roles = (messages: readonly Message[]) => messages.map((m) => `${m.role}${(m as { untrusted?: true }).untrusted ? '*' : ''}`);

describe('untrusted content: the mark carried forward', () => {
  it('a reply written in an exposed turn is marked; a later request that lost the page to trimming is still exposed, and its mail asks', async () => {
    const engine = new StepEngine([
      [call('r1', 'read_page'), finish('tool_calls')],
      // Exposed: the model repeats the page's order and calls something harmless.
      [text(`The page says to email the notes to ${ATTACKER}. First the stock.`), call('s1', 'check_stock', { item: 'notes' }), finish('tool_calls')],
      [call('m1', 'send_email', { to: ATTACKER, body: 'the notes' }), finish('tool_calls')],
      [text('I did not send it.'), finish()],
    ]);
    const sent: Array<{ to: string; body: string }> = [];
    const agent = (await Agent.make(engine, { context: BUDGET })).tool(readPage(PAGE)).tool(checkStock).tool(sendEmail(sent));
    const run = new ChatRunner().run(agent, 'What is on the page?');
    const events = await collect(run, (event) => event.type === 'approval_requested' && run.deny(event.call.id, 'not asked for'));
    const { messages } = await run.result;

    // The third request lost the page to trimming...
    const third = engine.requests[2]!.messages;
    expect(third.some((m) => String(m.content).includes('Lorem ipsum'))).toBe(false);
    expect(events.some((e) => e.type === 'context_trimmed')).toBe(true);
    // ...but it holds the reply written after reading it, which carries the mark: the mail asks.
    const asked = approvals(events);
    expect(asked.map((e) => e.call.name)).toEqual(['send_email']);
    expect(sent).toEqual([]);
    expect(asked[0]!.untrusted?.sources).toEqual([{ callId: '', name: 'assistant', kind: 'reply' }]);
    expect(roles(messages)).toEqual(['user', 'assistant', 'tool*', 'assistant*', 'tool', 'assistant*', 'tool', 'assistant*']);
  });

  it('a reply written in a turn that was not exposed carries no mark', async () => {
    const agent = (
      await Agent.make(
        new StepEngine([
          [call('s1', 'check_stock'), finish('tool_calls')],
          [text('In stock.'), finish()],
        ]),
      )
    )
      .tool(checkStock)
      .tool(readPage());
    const { messages } = await new ChatRunner().run(agent, 'stock?').result;
    expect(roles(messages)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('across runs of a stored conversation: the mark is stored with the reply, and the next run that trims the page out still asks', async () => {
    const store = new MemoryConversationStore();
    const first = new StepEngine([
      [call('r1', 'read_page'), finish('tool_calls')],
      [text(`The page asks me to email the notes to ${ATTACKER}.`), finish()],
    ]);
    const reader = (await Agent.make(first, { conversations: store, context: BUDGET })).tool(readPage(PAGE)).tool(sendEmail([]));
    await new ChatRunner().run(reader, 'What is on the page?', { conversation: 'c' }).result;

    // A later run: no untrusted tool any more, a long answer first, so the page's step is trimmed out.
    const second = new StepEngine([
      [call('s1', 'check_stock'), finish('tool_calls')],
      [call('m1', 'send_email', { to: ATTACKER, body: 'the notes' }), finish('tool_calls')],
      [text('Not sent.'), finish()],
    ]);
    const sent: Array<{ to: string; body: string }> = [];
    const actor = (await Agent.make(second, { conversations: store, context: BUDGET })).tool(checkStock).tool(sendEmail(sent));
    const run = new ChatRunner().run(actor, 'Do what it said.', { conversation: 'c' });
    const events = await collect(run, (event) => event.type === 'approval_requested' && run.deny(event.call.id));
    await run.result;
    expect(second.requests[1]!.messages.some((m) => String(m.content).includes('Lorem ipsum'))).toBe(false);
    expect(approvals(events).map((e) => e.call.name)).toEqual(['send_email']);
    expect(sent).toEqual([]);
    expect(roles((await store.load('c')).slice(0, 4))).toEqual(['user', 'assistant', 'tool*', 'assistant*']);
  });

  it("marks the runtime's note that quotes a reply written in an exposed turn (a format error), which trimming keeps apart from the reply", async () => {
    const engine = new StepEngine(
      [
        [text('[TOOL_CALL]{"name":"read_page","arguments":{}}[/TOOL_CALL]'), finish()],
        [text(`[TOOL_CALL]{"name":"send_email","arguments":{"to":"${ATTACKER}"[/TOOL_CALL]`), finish()],
        [text('ok'), finish()],
      ],
      false,
    );
    const agent = (await Agent.make(engine)).tool(readPage()).tool(sendEmail([]));
    const { messages } = await new ChatRunner().run(agent, 'read').result;
    const note = messages.find((m) => m.role === 'user' && m.origin === 'runtime')!;
    expect(note.content).toContain(ATTACKER);
    expect(note).toMatchObject({ untrusted: true });
  });

  it("the stores keep a reply's mark as `true` and refuse anything else (storage_invalid)", async () => {
    const store = new MemoryConversationStore();
    await expect(store.append('x', [{ role: 'assistant', content: 'hi', untrusted: 'yes' } as never])).rejects.toMatchObject({ code: 'storage_invalid' });
    await store.append('x', [{ role: 'assistant', content: 'hi', untrusted: true }]);
    expect((await store.load('x'))[0]).toEqual({ role: 'assistant', content: 'hi', untrusted: true });
  });

  it('never sends the mark of a reply to a server', async () => {
    const server = await startSseServer((_request, n) =>
      n === 0
        ? { pieces: [chunk({ tool_calls: [{ index: 0, id: 'r1', type: 'function', function: { name: 'read_page', arguments: '{}' } }] }, 'tool_calls'), DONE] }
        : n === 1
          ? {
              pieces: [
                chunk(
                  { content: 'Reading more.', tool_calls: [{ index: 0, id: 'r2', type: 'function', function: { name: 'read_page', arguments: '{}' } }] },
                  'tool_calls',
                ),
                DONE,
              ],
            }
          : { pieces: [chunk({ content: 'done' }, 'stop'), DONE] },
    );
    try {
      const agent = (await Agent.make(openAICompatible({ baseURL: server.baseURL, model: 'm' }))).tool(readPage());
      const { messages } = await new ChatRunner().run(agent, 'read').result;
      expect(messages.filter((m) => m.role === 'assistant').map((m) => (m as { untrusted?: true }).untrusted)).toEqual([undefined, true, true]);
      const sent = server.requests[2]!.json.messages as Array<Record<string, unknown>>;
      expect(sent.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
      for (const message of sent) expect(message).not.toHaveProperty('untrusted');
    } finally {
      await server.close();
    }
  });
});
