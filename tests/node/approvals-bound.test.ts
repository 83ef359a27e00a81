// A person's decision decides exactly the call it was given for: its run's call, its arguments, the
// tool the person saw. A decision left behind by a closed page, a waiting call, or a standing
// "Always allow" never decides another call, whatever id the model gives it.
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ChatRunner,
  defineTool,
  MemoryConversationStore,
  MemoryToolCallJournal,
  type RunEvent,
  scriptedEngine,
  type ScriptedReply,
} from '../../src/index.js';
import { sharedStores } from '../support/crashable-stores.js';
import { collect } from '../support/run-events.js';

const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

/** A tool that asks first and records each call it runs; `hang` leaves its calls running. */
function asking(name: string, ran: string[], options: { hang?: boolean; needsApproval?: boolean; identity?: string } = {}) {
  return defineTool({
    name,
    description: `${name} (asks first)`,
    parameters: { type: 'object', properties: { note: { type: 'string' } } },
    idempotent: false,
    needsApproval: options.needsApproval ?? true,
    ...(options.identity ? { identity: options.identity } : {}),
    call: ({ note }) => {
      ran.push(`${name}:${note ?? ''}`);
      return options.hang ? new Promise(() => {}) : 'done';
    },
  });
}

const call = (id: string, name: string, note: string): ScriptedReply => ({ toolCalls: [{ id, name, arguments: { note } }] });

describe('a decision left behind never decides another call', () => {
  it('an approval recorded for a call that was cut off by a closed page does not approve a later call reusing its id', async () => {
    const stores = sharedStores();
    const page = stores.page();
    const ran: string[] = [];
    const first = (await Agent.make(scriptedEngine([call('call_0', 'share_note', 'groceries')]), { conversations: page.conversations, journal: page.journal }))
      .tool(asking('share_note', ran, { hang: true }))
      .tool(asking('delete_everything', ran));
    const run = new ChatRunner().run(first, 'share my note', { conversation: 'notes' });
    await collect(run, (event) => {
      if (event.type === 'approval_requested') run.approve(event.call.id);
      if (event.type === 'tool_started') {
        // The page closes while the approved call runs: its decision stays in the store.
        page.crash();
        run.abort();
      }
    });
    await run.result.catch(() => undefined);
    const cutOff = (await stores.conversations.load('notes')).flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []) : []))[0]!;
    // Its record: approved, started, never finished.
    expect(await stores.journal.get(cutOff.idempotencyKey!)).toMatchObject({ callId: 'call_0', state: 'started', decision: { approved: true } });

    // A new run on the conversation; the model numbers its calls per reply and says call_0 again.
    const second = (await Agent.make(scriptedEngine([call('call_0', 'delete_everything', 'all'), 'Not deleted.']), stores))
      .tool(asking('share_note', ran))
      .tool(asking('delete_everything', ran));
    const next = new ChatRunner().run(second, 'now delete everything', { conversation: 'notes' });
    const events = await collect(next, (event) => event.type === 'approval_requested' && next.deny(event.call.id));
    await next.result;
    const asked = ofType(events, 'approval_requested');
    expect(asked.map((e) => e.call.name)).toEqual(['delete_everything']);
    // The conversation already holds call_0: the new call goes by another id.
    expect(asked[0]!.call.id).not.toBe('call_0');
    expect(ran).toEqual(['share_note:groceries']);
    // The model was told what became of the cut-off call; its record stays its own (under its key), deciding nothing else.
    expect(
      (await stores.conversations.load('notes')).some((m) => m.role === 'tool' && m.toolCallId === 'call_0' && m.content.includes('outcome_unknown')),
    ).toBe(true);
    expect(await stores.journal.get(cutOff.idempotencyKey!)).toMatchObject({ callId: 'call_0', name: 'share_note', state: 'started' });
    expect(await stores.journal.get(asked[0]!.call.idempotencyKey!)).toMatchObject({
      name: 'delete_everything',
      state: 'decided',
      decision: { approved: false },
    });
  });

  it('a decided record planted under an id the model then uses (its ids are in the history it is sent) decides nothing', async () => {
    const conversations = new MemoryConversationStore();
    const ran: string[] = [];
    await conversations.journal.ask({ idempotencyKey: 'k-old', callId: 'x', name: 'share_note', arguments: {}, conversation: 'notes', requestedAt: 1 });
    await conversations.journal.decide('k-old', { approved: true, decidedAt: 2 });
    const agent = (await Agent.make(scriptedEngine([call('x', 'delete_everything', 'all'), 'Stopped.']), { conversations })).tool(
      asking('delete_everything', ran),
    );
    const run = new ChatRunner().run(agent, 'go', { conversation: 'notes' });
    const events = await collect(run, (event) => event.type === 'approval_requested' && run.deny(event.call.id));
    await run.result;
    expect(ofType(events, 'approval_requested').map((e) => e.call.name)).toEqual(['delete_everything']);
    expect(ran).toEqual([]);
  });

  it('a call approved and run has one record, done with its result: nothing is left waiting to decide another call', async () => {
    const conversations = new MemoryConversationStore();
    const ran: string[] = [];
    const agent = (await Agent.make(scriptedEngine([call('a', 'share_note', 'x'), 'Shared.']), { conversations })).tool(asking('share_note', ran));
    const runner = new ChatRunner();
    const run = runner.run(agent, 'share', { conversation: 'notes' });
    await collect(run, (event) => event.type === 'approval_requested' && run.approve(event.call.id));
    await run.result;
    const records = await conversations.journal.listByConversation('notes');
    expect(records).toMatchObject([{ callId: 'a', state: 'succeeded', decision: { approved: true }, result: { ok: true } }]);
    expect(records[0]!.requestedAt).toBeTypeOf('number');
    expect(await runner.pendingApprovals(agent, 'notes')).toEqual([]);
  });
});

describe('a call that waited for a decision is asked again on resume, whatever its tool says now', () => {
  it('a tool that no longer asks (a new version, an MCP server that now says readOnlyHint) still asks for the waiting call', async () => {
    const conversations = new MemoryConversationStore();
    const journal = new MemoryToolCallJournal();
    const ran: string[] = [];
    const before = (await Agent.make(scriptedEngine([call('c1', 'publish', 'draft')]), { conversations, journal })).tool(asking('publish', ran));
    const run = new ChatRunner().run(before, 'publish it', { conversation: 'notes' });
    await collect(run, (event) => event.type === 'approval_requested' && run.suspend());
    await run.result.catch(() => undefined);

    const after = (await Agent.make(scriptedEngine(['Not published.']), { conversations, journal })).tool(asking('publish', ran, { needsApproval: false }));
    const resumed = new ChatRunner().resume(after, 'notes');
    const events = await collect(resumed, (event) => event.type === 'approval_requested' && resumed.deny(event.call.id, 'not now'));
    await resumed.result;
    expect(ofType(events, 'approval_requested').map((e) => e.call.id)).toEqual(['c1']);
    expect(ran).toEqual([]);
  });

  it('a decision recorded for the call is used on resume only while the tool is the one the person saw', async () => {
    for (const [identity, asked, runs] of [
      ['publish@1', 0, ['publish:draft']],
      ['publish@2', 1, []],
    ] as const) {
      const conversations = new MemoryConversationStore();
      const journal = new MemoryToolCallJournal();
      const stored = { id: 'c1', name: 'publish', arguments: { note: 'draft' }, idempotencyKey: 'k1' };
      // What a page that closed right after the person approved left: the call, and its decision.
      await conversations.append('notes', [
        { role: 'user', content: 'publish it' },
        { role: 'assistant', content: '', toolCalls: [stored] },
      ]);
      await journal.ask({
        idempotencyKey: 'k1',
        callId: 'c1',
        name: 'publish',
        arguments: stored.arguments,
        conversation: 'notes',
        requestedAt: 1,
        tool: 'publish@1',
      });
      await journal.decide('k1', { approved: true, decidedAt: 2 });
      const ran: string[] = [];
      const agent = (await Agent.make(scriptedEngine(['Done.']), { conversations, journal })).tool(asking('publish', ran, { identity }));
      const resumed = new ChatRunner().resume(agent, 'notes');
      const events = await collect(resumed, (event) => event.type === 'approval_requested' && resumed.deny(event.call.id));
      await resumed.result;
      expect(ofType(events, 'approval_requested'), identity).toHaveLength(asked);
      expect(ran, identity).toEqual(runs);
    }
  });
});

describe('a standing decision stands for the tool the person saw', () => {
  it('"Always allow" of one server\'s tool does not decide a tool of the same name from another server', async () => {
    const conversations = new MemoryConversationStore();
    const ran: string[] = [];
    const serverA = (await Agent.make(scriptedEngine([call('a1', 'mcp_send', 'one'), 'Sent.']), { conversations })).tool(
      asking('mcp_send', ran, { identity: 'mcp:https://a.example/mcp#send#1' }),
    );
    const first = new ChatRunner().run(serverA, 'send', { conversation: 'notes' });
    await collect(first, (event) => event.type === 'approval_requested' && first.approve(event.call.id, { always: true }));
    await first.result;

    // The same server again: decided without asking.
    const again = (await Agent.make(scriptedEngine([call('a2', 'mcp_send', 'two'), 'Sent.']), { conversations })).tool(
      asking('mcp_send', ran, { identity: 'mcp:https://a.example/mcp#send#1' }),
    );
    const second = await collect(new ChatRunner().run(again, 'send', { conversation: 'notes' }));
    expect(ofType(second, 'approval_resolved')).toMatchObject([{ standing: true, approved: true }]);

    // Another server whose tool took the same name: asked.
    const serverB = (await Agent.make(scriptedEngine([call('b1', 'mcp_send', 'three'), 'Not sent.']), { conversations })).tool(
      asking('mcp_send', ran, { identity: 'mcp:https://b.example/mcp#send#1' }),
    );
    const third = new ChatRunner().run(serverB, 'send', { conversation: 'notes' });
    const events = await collect(third, (event) => event.type === 'approval_requested' && third.deny(event.call.id));
    await third.result;
    expect(ofType(events, 'approval_requested')).toHaveLength(1);
    expect(ran).toEqual(['mcp_send:one', 'mcp_send:two']);
  });

  it('a tool whose description changed is a tool the person has not seen: asked again', async () => {
    const conversations = new MemoryConversationStore();
    const ran: string[] = [];
    const send = (description: string) =>
      defineTool({
        name: 'send',
        description,
        parameters: { type: 'object' },
        idempotent: false,
        needsApproval: true,
        call: () => (ran.push(description), 'sent'),
      });
    const agentFor = async (id: string, description: string) =>
      (await Agent.make(scriptedEngine([call(id, 'send', id), 'ok']), { conversations })).tool(send(description));
    const first = new ChatRunner().run(await agentFor('a', 'Send a note to a friend'), 'x', { conversation: 'c' });
    await collect(first, (event) => event.type === 'approval_requested' && first.approve(event.call.id, { always: true }));
    await first.result;
    const next = new ChatRunner().run(await agentFor('b', 'Send every note to anyone'), 'x', { conversation: 'c' });
    const events = await collect(next, (event) => event.type === 'approval_requested' && next.deny(event.call.id));
    await next.result;
    expect(ofType(events, 'approval_requested')).toHaveLength(1);
    expect(ran).toEqual(['Send a note to a friend']);
  });
});
