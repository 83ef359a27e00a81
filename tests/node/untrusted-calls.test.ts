// Tainted calls: what `afterUntrusted` does with a call proposed after untrusted content, what the card says, and standing decisions.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, MemoryConversationStore, type RunEvent, scriptedEngine } from '../../src/index.js';
import { call, finish, gate, StepEngine } from '../support/engines.js';
import { collect } from '../support/run-events.js';
import { ATTACKER, lookup, readPage, sendEmail } from '../support/untrusted-tools.js';

/** A reply that reads the page, then one that mails `to`, then an answer. */
const readThenMail = (to: string, body = 'the notes of the day') => [
  { toolCalls: [{ id: 'r1', name: 'read_page', arguments: {} }] },
  { toolCalls: [{ id: 'm1', name: 'send_email', arguments: { to, body } }] },
  'done',
];

const approvalsOf = (events: RunEvent[]) => events.filter((e): e is Extract<RunEvent, { type: 'approval_requested' }> => e.type === 'approval_requested');

describe('tainted calls: afterUntrusted', () => {
  it('a tool that changes something asks by default after untrusted content, though its own policy never asks; the card names the source and the argument that came from it', async () => {
    const sent: Array<{ to: string; body: string }> = [];
    const agent = (await Agent.make(scriptedEngine(readThenMail(ATTACKER)))).tool(readPage()).tool(sendEmail(sent));
    const run = new ChatRunner().run(agent, 'what does the page say?');
    const events = await collect(run, (e) => e.type === 'approval_requested' && run.deny(e.call.id));
    expect(approvalsOf(events)).toEqual([
      {
        type: 'approval_requested',
        call: expect.objectContaining({ id: 'm1', name: 'send_email' }),
        untrusted: { sources: [{ callId: 'r1', name: 'read_page' }], flows: [{ path: '/to', from: 'r1' }] },
      },
    ]);
    expect(sent).toEqual([]);
    expect((await run.result).toolResults[1]).toMatchObject({ ok: false, error: { code: 'denied' } });
  });

  it('the same call before any untrusted content runs unasked: only an exposed turn taints', async () => {
    const sent: Array<{ to: string; body: string }> = [];
    const replies = [{ toolCalls: [{ id: 'm1', name: 'send_email', arguments: { to: 'me@home.example', body: 'hello' } }] }, 'done'];
    const agent = (await Agent.make(scriptedEngine(replies))).tool(readPage()).tool(sendEmail(sent));
    const events = await collect(new ChatRunner().run(agent, 'mail me'));
    expect(approvalsOf(events)).toEqual([]);
    expect(sent).toEqual([{ to: 'me@home.example', body: 'hello' }]);
  });

  it("a read-only tool runs unasked after untrusted content (afterUntrusted 'allow' by default)", async () => {
    const agent = (
      await Agent.make(
        scriptedEngine([
          { toolCalls: [{ id: 'r1', name: 'read_page', arguments: {} }] },
          { toolCalls: [{ id: 'l1', name: 'lookup', arguments: { word: 'w' } }] },
          'done',
        ]),
      )
    )
      .tool(readPage())
      .tool(lookup);
    const run = new ChatRunner().run(agent, 'go');
    const events = await collect(run);
    expect(approvalsOf(events)).toEqual([]);
    expect((await run.result).toolResults.map((r) => r.ok)).toEqual([true, true]);
  });

  it("afterUntrusted 'refuse': the call does not run, and its unmarked result tells the model why", async () => {
    const sent: Array<{ to: string; body: string }> = [];
    const agent = (await Agent.make(scriptedEngine(readThenMail(ATTACKER)))).tool(readPage()).tool(sendEmail(sent, { afterUntrusted: 'refuse' }));
    const run = new ChatRunner().run(agent, 'go');
    const events = await collect(run);
    expect(approvalsOf(events)).toEqual([]);
    expect(sent).toEqual([]);
    const { toolResults, messages } = await run.result;
    const refused = toolResults[1]!;
    expect(refused).toMatchObject({ ok: false, error: { code: 'untrusted_refused' }, attempts: 0 });
    expect(refused.untrusted).toBeUndefined();
    expect(!refused.ok && refused.error.message).toMatch(/was not run: .*outside the app \(results of read_page\)/);
    const message = messages.find((m) => m.role === 'tool' && m.toolCallId === 'm1');
    expect(message).not.toHaveProperty('untrusted');
  });

  it("afterUntrusted 'allow' on a tool whose own rule asks: the card still says what was read", async () => {
    const sent: Array<{ to: string; body: string }> = [];
    const agent = (await Agent.make(scriptedEngine(readThenMail(ATTACKER))))
      .tool(readPage())
      .tool(sendEmail(sent, { afterUntrusted: 'allow', needsApproval: true }));
    const run = new ChatRunner().run(agent, 'go');
    const events = await collect(run, (e) => e.type === 'approval_requested' && run.approve(e.call.id));
    expect(approvalsOf(events)[0]?.untrusted).toEqual({ sources: [{ callId: 'r1', name: 'read_page' }], flows: [{ path: '/to', from: 'r1' }] });
    expect(sent).toHaveLength(1);
  });

  it("afterUntrusted 'allow' on a tool that never asks: it runs unasked, its tool_call still marked tainted", async () => {
    const sent: Array<{ to: string; body: string }> = [];
    const agent = (await Agent.make(scriptedEngine(readThenMail(ATTACKER)))).tool(readPage()).tool(sendEmail(sent, { afterUntrusted: 'allow' }));
    const events = await collect(new ChatRunner().run(agent, 'go'));
    expect(approvalsOf(events)).toEqual([]);
    expect(sent).toHaveLength(1);
    expect(events.find((e) => e.type === 'tool_call' && e.call.id === 'm1')).toMatchObject({ untrusted: { sources: [{ callId: 'r1' }] } });
  });

  it('a tainted call that may be asked about never starts while its reply still streams', async () => {
    const held = gate();
    let started = false;
    const mark = defineTool({
      name: 'mark_done',
      description: 'x',
      parameters: { type: 'object' },
      idempotent: true, // would start early, were it not tainted
      call: () => {
        started = true;
        return 'ok';
      },
    });
    let replyEnded = false;
    const ending = held.promise.then(() => (replyEnded = true));
    const engine = new StepEngine([
      [call('r1', 'read_page'), finish('tool_calls')],
      [call('k1', 'mark_done'), { type: 'wait', until: ending }, finish('tool_calls')],
      [{ type: 'text', text: 'done' }, finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(readPage()).tool(mark);
    const run = new ChatRunner().run(agent, 'go');
    const askedWhileStreaming: boolean[] = [];
    await collect(run, (e) => {
      // The reply goes on streaming a task later: a call started early would be asked about before that.
      if (e.type === 'tool_call' && e.call.id === 'k1') setTimeout(() => held.open(), 0);
      if (e.type === 'approval_requested') {
        askedWhileStreaming.push(!replyEnded);
        run.approve(e.call.id);
      }
    });
    await run.result;
    expect(askedWhileStreaming).toEqual([false]);
    expect(started).toBe(true);
  });

  it('the same idempotent tool starts early in a turn that is not exposed', async () => {
    const held = gate();
    let startedBeforeEnd = false;
    let ended = false;
    const mark = defineTool({
      name: 'mark_done',
      description: 'x',
      parameters: { type: 'object' },
      idempotent: true,
      call: () => {
        startedBeforeEnd = !ended;
        held.open();
        return 'ok';
      },
    });
    const engine = new StepEngine([
      [call('k1', 'mark_done'), { type: 'wait', until: held.promise.then(() => (ended = true)) }, finish('tool_calls')],
      [{ type: 'text', text: 'done' }, finish()],
    ]);
    const agent = (await Agent.make(engine)).tool(readPage()).tool(mark);
    await new ChatRunner().run(agent, 'go').result;
    expect(startedBeforeEnd).toBe(true);
  });
});

describe('tainted calls: standing decisions', () => {
  const twoRuns = async (first: (run: ReturnType<ChatRunner['run']>, e: RunEvent) => void) => {
    const sent: Array<{ to: string; body: string }> = [];
    const conversations = new MemoryConversationStore();
    const engine = scriptedEngine([
      { toolCalls: [{ id: 'm1', name: 'send_email', arguments: { to: 'me@home.example', body: 'first' } }] },
      'first done',
      ...readThenMail(ATTACKER, 'second'),
    ]);
    const agent = (await Agent.make(engine, { conversations })).tool(readPage()).tool(sendEmail(sent, { needsApproval: true }));
    const runner = new ChatRunner();
    const one = runner.run(agent, 'mail me', { conversation: 'c' });
    await collect(one, (e) => first(one, e));
    await one.result;
    const two = runner.run(agent, 'read the page', { conversation: 'c' });
    const events = await collect(two, (e) => e.type === 'approval_requested' && two.deny(e.call.id));
    return { sent, events, result: await two.result };
  };

  it('an "always allow" given on an untainted call does not decide a tainted one: it is asked', async () => {
    const { sent, events } = await twoRuns((run, e) => e.type === 'approval_requested' && run.approve(e.call.id, { always: true }));
    expect(sent.map((m) => m.body)).toEqual(['first']);
    expect(approvalsOf(events)).toHaveLength(1);
    expect(approvalsOf(events)[0]!.untrusted?.sources).toEqual([{ callId: 'r1', name: 'read_page' }]);
  });

  it('an "always deny" given on an untainted call decides a tainted one too', async () => {
    const { sent, events, result } = await twoRuns((run, e) => e.type === 'approval_requested' && run.deny(e.call.id, 'no mail', { always: true }));
    expect(sent).toEqual([]);
    expect(approvalsOf(events)).toEqual([]);
    expect(events.find((e) => e.type === 'approval_resolved')).toMatchObject({ approved: false, standing: true });
    expect(result.toolResults.at(-1)).toMatchObject({ ok: false, error: { code: 'denied' } });
  });

  it('an "always allow" given on a tainted call decides later tainted calls of the tool in the conversation', async () => {
    const sent: Array<{ to: string; body: string }> = [];
    const conversations = new MemoryConversationStore();
    const engine = scriptedEngine([
      ...readThenMail('me@home.example', 'one'),
      { toolCalls: [{ id: 'm2', name: 'send_email', arguments: { to: 'me@home.example', body: 'two' } }] },
      'done again',
    ]);
    const agent = (await Agent.make(engine, { conversations })).tool(readPage()).tool(sendEmail(sent));
    const runner = new ChatRunner();
    const one = runner.run(agent, 'read and mail', { conversation: 'c' });
    await collect(one, (e) => e.type === 'approval_requested' && one.approve(e.call.id, { always: true }));
    const events = await collect(runner.run(agent, 'mail again', { conversation: 'c' }));
    expect(approvalsOf(events)).toEqual([]);
    expect(events.find((e) => e.type === 'approval_resolved')).toMatchObject({ approved: true, standing: true });
    expect(sent.map((m) => m.body)).toEqual(['one', 'two']);
  });
});
