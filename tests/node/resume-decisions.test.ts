import { describe, expect, it } from 'vitest';
import {
  Agent,
  ChatRunner,
  defineTool,
  isAmbiError,
  MemoryConversationStore,
  MemorySnapshotStore,
  MemoryToolCallJournal,
  scriptedEngine,
  type Engine,
  type RunEvent,
  type ScriptedReply,
} from '../../src/index.js';
import { sharedStores } from '../support/crashable-stores.js';
import { collect } from '../support/run-events.js';
import { approvedRemove, removeCall, untilAborted } from '../support/tools.js';

async function agentWith(
  replies: ScriptedReply[],
  ran: string[],
  stores = { conversations: new MemoryConversationStore(), journal: new MemoryToolCallJournal() },
) {
  return { agent: (await Agent.make(scriptedEngine(replies), stores)).tool(approvedRemove(ran)), stores };
}

const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe('run.suspend()', () => {
  it('keeps the waiting approval pending, aborts and journals the running call, and rejects with suspended; a resume continues it', async () => {
    const conversations = new MemoryConversationStore();
    const journal = new MemoryToolCallJournal();
    const ran: string[] = [];
    let aborted = 0;
    const agent = (
      await Agent.make(
        scriptedEngine([
          {
            toolCalls: [
              { id: 'del', name: 'remove', arguments: { note: 'old' } },
              { id: 'up', name: 'upload', arguments: {} },
            ],
          },
          'Removed, and the upload was stopped.',
        ]),
        { conversations, journal },
      )
    )
      .tool(approvedRemove(ran))
      .tool(untilAborted('upload', () => aborted++));
    const runner = new ChatRunner();
    const run = runner.run(agent, 'tidy up', { conversation: 'notes' });
    const seen = new Set<string>();
    await collect(run, (e) => {
      if (e.type === 'approval_requested' || e.type === 'tool_started') seen.add(e.type);
      if (seen.size === 2) {
        seen.clear();
        run.suspend();
      }
    });
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'suspended')).toBe(true);
    expect(aborted).toBe(1);
    // Nothing of the interrupted batch is in the conversation: the call that waited is still pending.
    expect((await conversations.load('notes')).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(await runner.pendingApprovals(agent, 'notes')).toMatchObject([{ callId: 'del' }]);

    const resumed = runner.resume(agent, 'notes');
    const events = await collect(resumed, (e) => e.type === 'approval_requested' && resumed.approve(e.call.id));
    const result = await resumed.result;
    expect(ofType(events, 'approval_requested').map((e) => e.call.id)).toEqual(['del']);
    expect(ran).toEqual(['old']);
    // The upload was aborted by the suspend: its recorded result is used, it is not run again.
    expect(result.toolResults).toMatchObject([
      { id: 'del', ok: true },
      { id: 'up', ok: false, error: { code: 'aborted' } },
    ]);
    expect(aborted).toBe(1);
  });

  it('suspended while waiting for the lock, a run says suspended and stores nothing', async () => {
    const ran: string[] = [];
    const { agent, stores } = await agentWith([removeCall('a', 'x'), 'done'], ran);
    const runner = new ChatRunner();
    const holder = runner.run(agent, 'first', { conversation: 'notes' });
    const waiting = runner.run(agent, 'second', { conversation: 'notes' });
    await collect(holder, (e) => {
      if (e.type !== 'approval_requested') return;
      waiting.suspend();
      void waiting.result.catch(() => holder.approve(e.call.id));
    });
    expect(isAmbiError(await waiting.result.catch((e: unknown) => e), 'suspended')).toBe(true);
    expect((await stores.conversations.load('notes')).filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['first']);
  });
});

describe('an approved call runs once', () => {
  it('an approved idempotent call that ran before the page went away is not run again on resume', async () => {
    const stores = sharedStores();
    const page = stores.page();
    let exports = 0;
    const share = defineTool({
      name: 'share',
      description: 'Share the note with a colleague',
      parameters: { type: 'object' },
      idempotent: true,
      needsApproval: true,
      call: () => {
        // The result is journalled; the page goes away before the conversation stores it.
        page.crash('conversation');
        return `shared ${++exports}`;
      },
    });
    const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ id: 'sh', name: 'share', arguments: {} }] }]), page)).tool(share);
    const run = new ChatRunner().run(agent, 'share it', { conversation: 'notes' });
    await collect(run, (e) => e.type === 'approval_requested' && run.approve(e.call.id));
    await run.result.catch(() => undefined);
    expect(exports).toBe(1);

    const again = (await Agent.make(scriptedEngine(['Shared.']), stores)).tool(share);
    const resumed = new ChatRunner().resume(again, 'notes');
    const events = await collect(resumed);
    const result = await resumed.result;
    expect(exports).toBe(1);
    expect(ofType(events, 'approval_requested')).toEqual([]);
    expect(result.toolResults).toMatchObject([{ id: 'sh', ok: true, output: 'shared 1' }]);
  });
});

describe('a new run after an interrupted one', () => {
  it('tells the model a call that waited for approval did not run, even when its tool is idempotent', async () => {
    const stores = sharedStores();
    const page = stores.page();
    let shares = 0;
    const share = defineTool({ name: 'share', description: 'x', parameters: { type: 'object' }, idempotent: true, needsApproval: true, call: () => ++shares });
    const first = (await Agent.make(scriptedEngine([{ toolCalls: [{ id: 'sh', name: 'share', arguments: {} }] }]), page)).tool(share);
    const run = new ChatRunner().run(first, 'share', { conversation: 'notes' });
    await collect(run, (e) => {
      if (e.type !== 'approval_requested') return;
      page.crash();
      run.abort();
    });
    await run.result.catch(() => undefined);
    const again = (await Agent.make(scriptedEngine(['OK.']), stores)).tool(share);
    await new ChatRunner().run(again, 'never mind', { conversation: 'notes' }).result;
    const told = (await stores.conversations.load('notes')).find((m) => m.role === 'tool');
    expect(told && JSON.parse(told.content).error.code).toBe('aborted');
    expect(shares).toBe(0);
  });
});

describe('run.suspend() during a model turn', () => {
  it('stops the turn, rejects with suspended, and a resume asks the model again for the person’s message', async () => {
    const conversations = new MemoryConversationStore();
    // The first turn streams until its signal aborts; the next one answers.
    let turns = 0;
    let streaming!: () => void;
    const started = new Promise<void>((resolve) => (streaming = resolve));
    const engine: Engine = {
      nativeTools: true,
      async *stream(request) {
        if (++turns === 1) {
          streaming();
          await new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(request.signal?.reason)));
        }
        yield { type: 'text', text: 'Hello again.' };
        yield { type: 'finish', reason: 'stop' };
      },
    };
    const agent = await Agent.make(engine, { conversations });
    const runner = new ChatRunner();
    const run = runner.run(agent, 'hello', { conversation: 'turn' });
    void started.then(() => run.suspend());
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'suspended')).toBe(true);
    expect((await conversations.load('turn')).map((m) => m.role)).toEqual(['user']);
    const resumed = runner.resume(agent, 'turn');
    const events = await collect(resumed);
    expect((await resumed.result).text).toBe('Hello again.');
    expect(events[0]).toMatchObject({ type: 'run_started', input: 'hello' });
    expect((await conversations.load('turn')).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(turns).toBe(2);
  });
});

describe('standing decisions', () => {
  it('approve(id, { always: true }) lets later calls of the tool in that conversation run without asking, across a reload', async () => {
    const ran: string[] = [];
    const stores = { conversations: new MemoryConversationStore(), journal: new MemoryToolCallJournal() };
    const { agent } = await agentWith([removeCall('a', 'one'), 'ok', removeCall('b', 'two'), 'ok'], ran, stores);
    const first = new ChatRunner().run(agent, 'remove one', { conversation: 'notes' });
    await collect(first, (e) => e.type === 'approval_requested' && first.approve(e.call.id, { always: true }));
    await first.result;

    // A new page on the same stores.
    const { agent: reloaded } = await agentWith([removeCall('c', 'three'), 'ok'], ran, stores);
    const later = new ChatRunner().run(reloaded, 'remove three', { conversation: 'notes' });
    const events = await collect(later);
    await later.result;
    expect(ran).toEqual(['one', 'three']);
    expect(ofType(events, 'approval_requested')).toEqual([]);
    expect(ofType(events, 'approval_resolved')).toMatchObject([{ callId: 'c', approved: true, standing: true }]);
  });

  it('deny(id, reason, { always: true }) refuses later calls of the tool without asking, and only in that conversation', async () => {
    const ran: string[] = [];
    const { agent } = await agentWith([removeCall('a', 'one'), 'ok', removeCall('b', 'two'), 'ok', removeCall('c', 'three')], ran);
    const runner = new ChatRunner();
    const first = runner.run(agent, 'remove one', { conversation: 'notes' });
    await collect(first, (e) => e.type === 'approval_requested' && first.deny(e.call.id, 'never remove notes', { always: true }));
    await first.result;
    const second = runner.run(agent, 'remove two', { conversation: 'notes' });
    const events = await collect(second);
    const result = await second.result;
    expect(ofType(events, 'approval_requested')).toEqual([]);
    expect(ofType(events, 'approval_resolved')).toMatchObject([{ callId: 'b', approved: false, reason: 'never remove notes', standing: true }]);
    expect(result.toolResults).toMatchObject([{ id: 'b', ok: false, error: { code: 'denied' } }]);
    expect(JSON.parse(result.messages.at(-2)!.content as string).error.message).toContain('never remove notes');
    // Another conversation has no standing decision: it asks.
    const other = runner.run(agent, 'remove three', { conversation: 'elsewhere' });
    let asked = false;
    await collect(other, (e) => {
      if (e.type !== 'approval_requested') return;
      asked = true;
      other.abort();
    });
    expect(asked).toBe(true);
    expect(ran).toEqual([]);
  });
});

describe('edited arguments on approval', () => {
  it('runs the call with the edited arguments, journals them, and tells the model they were edited', async () => {
    const ran: string[] = [];
    const { agent, stores } = await agentWith([removeCall('a', 'everything'), 'Removed the draft only.'], ran);
    const run = new ChatRunner().run(agent, 'remove it', { conversation: 'notes' });
    await collect(run, (e) => e.type === 'approval_requested' && run.approve(e.call.id, { arguments: { note: 'draft' } }));
    const result = await run.result;
    expect(ran).toEqual(['draft']);
    expect(result.toolResults).toMatchObject([{ id: 'a', ok: true, output: 'removed draft', editedArguments: { note: 'draft' } }]);
    const told = JSON.parse(result.messages.find((m) => m.role === 'tool')!.content);
    expect(told).toMatchObject({ ok: true, editedArguments: { note: 'draft' } });
    expect(told.note).toContain('edited');
    const stored = await stores.conversations.load('notes');
    const key = stored.find((m) => m.role === 'assistant' && m.toolCalls)!;
    const entry = await stores.journal.get(key.role === 'assistant' ? key.toolCalls![0]!.idempotencyKey! : '');
    // One record: the call as proposed, the person's edit in its decision, and the result of what ran.
    expect(entry).toMatchObject({ arguments: { note: 'everything' }, decision: { approved: true, arguments: { note: 'draft' } }, state: 'succeeded' });
    expect(entry?.result).toMatchObject({ ok: true, output: 'removed draft' });
  });

  it('refuses edited arguments that do not fit the schema (invalid_arguments), and the tool never runs', async () => {
    const ran: string[] = [];
    const { agent } = await agentWith([removeCall('a', 'x'), 'ok'], ran);
    const run = new ChatRunner().run(agent, 'remove it', { conversation: 'notes' });
    await collect(run, (e) => e.type === 'approval_requested' && run.approve(e.call.id, { arguments: { note: 42 } }));
    const result = await run.result;
    expect(ran).toEqual([]);
    expect(result.toolResults).toMatchObject([{ id: 'a', ok: false, error: { code: 'invalid_arguments' }, attempts: 0 }]);
  });

  it('refuses edited arguments nested too deep, as it refuses a model’s', async () => {
    const ran: string[] = [];
    const { agent } = await agentWith([removeCall('a', 'x'), 'ok'], ran);
    let deep: Record<string, unknown> = {};
    const top = deep;
    for (let i = 0; i < 100; i++) deep = deep.next = {};
    const run = new ChatRunner().run(agent, 'remove it', { conversation: 'notes' });
    await collect(run, (e) => e.type === 'approval_requested' && run.approve(e.call.id, { arguments: top }));
    expect((await run.result).toolResults).toMatchObject([{ ok: false, error: { code: 'invalid_arguments' } }]);
    expect(ran).toEqual([]);
  });

  it('uses a decision recorded before the page went away: not asked again, and with its edited arguments', async () => {
    const stores = sharedStores();
    const page = stores.page();
    const ran: string[] = [];
    const agent = (await Agent.make(scriptedEngine([removeCall('a', 'all')]), { conversations: page.conversations, journal: page.journal })).tool(
      defineTool({
        ...approvedRemove(ran),
        // The page goes away after the decision was recorded, before the call could begin.
        call: () => new Promise(() => {}),
      }),
    );
    // The journal's begin fails once the page is gone: the call is cut before it starts.
    const run = new ChatRunner().run(agent, 'remove', { conversation: 'notes' });
    await collect(run, (e) => {
      if (e.type === 'approval_requested') run.approve(e.call.id, { arguments: { note: 'one' } });
      if (e.type === 'approval_resolved') {
        page.crash();
        run.abort();
      }
    });
    await run.result.catch(() => undefined);
    const again = (await Agent.make(scriptedEngine(['ok']), { conversations: stores.conversations, journal: stores.journal })).tool(approvedRemove(ran));
    const resumed = new ChatRunner().resume(again, 'notes');
    const events = await collect(resumed);
    await resumed.result;
    expect(ofType(events, 'approval_requested')).toEqual([]);
    expect(ran).toEqual(['one']);
  });
});

describe('leaves and resume', () => {
  it('a leaf interrupted while its call waited for approval is reported to the parent as leaf_interrupted, never resumed', async () => {
    const stores = sharedStores();
    const page = stores.page();
    const ran: string[] = [];
    const parent = (
      await Agent.make(
        scriptedEngine([{ toolCalls: [{ id: 'job', name: 'spawn_leaf', arguments: { task: 'remove old notes' } }] }, removeCall('leafdel', 'old')]),
        {
          conversations: page.conversations,
          journal: page.journal,
        },
      )
    )
      .tool(approvedRemove(ran))
      .leaf({ store: new MemorySnapshotStore() });
    const run = new ChatRunner().run(parent, 'tidy', { conversation: 'notes' });
    let leafAsked = false;
    await collect(run, (e) => {
      if (e.type !== 'approval_requested') return;
      leafAsked = e.leafId !== undefined;
      page.crash();
      run.abort();
    });
    await run.result.catch(() => undefined);
    expect(leafAsked).toBe(true);

    const again = (await Agent.make(scriptedEngine(['The helper was cut off; nothing more was removed.']), stores))
      .tool(approvedRemove(ran))
      .leaf({ store: new MemorySnapshotStore() });
    const runner = new ChatRunner();
    expect(await runner.pendingApprovals(again, 'notes')).toEqual([]);
    const result = await runner.resume(again, 'notes').result;
    expect(ran).toEqual([]);
    expect(result.toolResults).toMatchObject([{ id: 'job', ok: false, error: { code: 'leaf_interrupted' } }]);
    expect(result.text).toBe('The helper was cut off; nothing more was removed.');
  });
});

describe('hostile callers and models around resume', () => {
  it('refuses a resume or a listing without a conversation id, with invalid_option', async () => {
    const { agent } = await agentWith([], []);
    const runner = new ChatRunner();
    expect(() => runner.resume(agent, '')).toThrow(expect.objectContaining({ code: 'invalid_option' }));
    expect(() => runner.resume(agent, undefined as unknown as string)).toThrow(expect.objectContaining({ code: 'invalid_option' }));
    await expect(runner.pendingApprovals(agent, 42 as unknown as string)).rejects.toMatchObject({ code: 'invalid_option' });
  });

  it('a model that reuses the resumed call’s id in its next reply gets a fresh id: the results never mix', async () => {
    const stores = sharedStores();
    const ran: string[] = [];
    await stores.conversations.append('notes', [
      { role: 'user', content: 'remove two notes' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'del', name: 'remove', arguments: { note: 'one' }, idempotencyKey: 'k1' }] },
    ]);
    const agent = (await Agent.make(scriptedEngine([removeCall('del', 'two'), 'done']), stores)).tool(approvedRemove(ran));
    const run = new ChatRunner().resume(agent, 'notes');
    const events = await collect(run, (e) => e.type === 'approval_requested' && run.approve(e.call.id));
    const result = await run.result;
    const ids = ofType(events, 'approval_requested').map((e) => e.call.id);
    expect(ids[0]).toBe('del');
    expect(ids[1]).not.toBe('del');
    expect(ran).toEqual(['one', 'two']);
    expect(new Set(result.toolResults.map((r) => r.id)).size).toBe(2);
  });

  it('an approval for an id nobody asked about, or a second decision, changes nothing', async () => {
    const ran: string[] = [];
    const { agent } = await agentWith([removeCall('a', 'x'), 'ok'], ran);
    const run = new ChatRunner().run(agent, 'remove', { conversation: 'notes' });
    run.approve('a', { arguments: { note: 'early' } });
    await collect(run, (e) => {
      if (e.type !== 'approval_requested') return;
      run.approve('someone-else');
      run.deny(e.call.id, 'no');
      run.approve(e.call.id, { arguments: { note: 'late' } });
    });
    expect((await run.result).toolResults).toMatchObject([{ id: 'a', ok: false, error: { code: 'denied' } }]);
    expect(ran).toEqual([]);
  });

  it('a stored call of a non-idempotent tool without an idempotency key is never run on resume (outcome_unknown)', async () => {
    const stores = sharedStores();
    let sent = 0;
    const send = defineTool({ name: 'send', description: 'x', parameters: { type: 'object' }, idempotent: false, call: () => ++sent });
    await stores.conversations.append('notes', [
      { role: 'user', content: 'send' },
      { role: 'assistant', content: '', toolCalls: [{ id: 's', name: 'send', arguments: {} }] },
    ]);
    const agent = (await Agent.make(scriptedEngine(['Not sure it went.']), stores)).tool(send);
    const result = await new ChatRunner().resume(agent, 'notes').result;
    expect(sent).toBe(0);
    expect(result.toolResults).toMatchObject([{ id: 's', ok: false, error: { code: 'outcome_unknown' } }]);
  });

  it('a resumed call whose tool is gone gets unknown_tool, and the run goes on', async () => {
    const stores = sharedStores();
    await stores.conversations.append('notes', [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'x', name: 'vanished', arguments: {}, idempotencyKey: 'k' }] },
    ]);
    const agent = await Agent.make(scriptedEngine(['That tool is gone.']), stores);
    const result = await new ChatRunner().resume(agent, 'notes').result;
    expect(result.toolResults).toMatchObject([{ id: 'x', ok: false, error: { code: 'unknown_tool' } }]);
    expect(result.text).toBe('That tool is gone.');
  });

  it('a resume keeps the reply limit: calls of the interrupted reply past maxCallsPerReply are not run (too_many_calls)', async () => {
    const stores = sharedStores();
    let reads = 0;
    const read = defineTool({ name: 'read', description: 'x', parameters: { type: 'object' }, idempotent: true, call: () => ++reads });
    const toolCalls = Array.from({ length: 5 }, (_, i) => ({ id: `r${i}`, name: 'read', arguments: {}, idempotencyKey: `k${i}` }));
    await stores.conversations.append('notes', [
      { role: 'user', content: 'read a lot' },
      { role: 'assistant', content: '', toolCalls },
    ]);
    const agent = (await Agent.make(scriptedEngine(['Read two.']), stores)).tool(read);
    const result = await new ChatRunner().resume(agent, 'notes', { maxCallsPerReply: 2 }).result;
    expect(reads).toBe(2);
    expect(result.toolResults.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['ok', 'ok', 'too_many_calls', 'too_many_calls', 'too_many_calls']);
  });

  it('a journal that never answers does not keep abort from stopping the run', async () => {
    const conversations = new MemoryConversationStore();
    const journal = new MemoryToolCallJournal();
    const hanging = { ...bound(journal), standing: () => new Promise<never>(() => {}) };
    const ran: string[] = [];
    const agent = (await Agent.make(scriptedEngine([removeCall('a', 'x')]), { conversations, journal: hanging })).tool(approvedRemove(ran));
    const run = new ChatRunner().run(agent, 'remove', { conversation: 'notes' });
    await collect(run, (e) => e.type === 'tool_call' && run.abort('stop'));
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'aborted')).toBe(true);
    expect(ran).toEqual([]);
  });
});

describe('what pendingApprovals shows', () => {
  const stored = { id: 'a', name: 'remove', arguments: { note: 'draft' }, idempotencyKey: 'k' };
  const asked = { idempotencyKey: 'k', callId: 'a', name: 'remove', conversation: 'notes', requestedAt: 7 };

  it('the call as the conversation holds it, with the place its record says it was proposed for', async () => {
    const stores = sharedStores();
    await stores.conversations.append('notes', [
      { role: 'user', content: 'remove' },
      { role: 'assistant', content: '', toolCalls: [stored] },
    ]);
    const target = { kind: 'tab', tabId: 3, documentId: 'd', origin: 'https://a.example', url: 'https://a.example/', title: 'A' };
    await stores.journal.ask({ ...asked, arguments: { note: 'draft' }, target });
    const agent = await Agent.make(scriptedEngine([]), stores);
    expect(await new ChatRunner().pendingApprovals(agent, 'notes')).toEqual([{ callId: 'a', call: { ...stored, target }, requestedAt: 7 }]);
  });

  it('never a record’s other version of the call: a record under its key with other arguments lists nothing', async () => {
    const stores = sharedStores();
    await stores.conversations.append('notes', [
      { role: 'user', content: 'remove' },
      { role: 'assistant', content: '', toolCalls: [stored] },
    ]);
    // A record written by something else, naming the same call with other arguments.
    await stores.journal.ask({ ...asked, arguments: { note: 'everything' } });
    const agent = await Agent.make(scriptedEngine([]), stores);
    expect(await new ChatRunner().pendingApprovals(agent, 'notes')).toEqual([]);
  });
});

/** A journal's methods bound to it, to override one. */
function bound(journal: MemoryToolCallJournal) {
  return {
    begin: journal.begin.bind(journal),
    finish: journal.finish.bind(journal),
    get: journal.get.bind(journal),
    ask: journal.ask.bind(journal),
    decide: journal.decide.bind(journal),
    setStanding: journal.setStanding.bind(journal),
    standing: journal.standing.bind(journal),
  };
}
