import { describe, expect, it } from 'vitest';
import {
  Agent,
  ChatRunner,
  defineTool,
  isAmbiError,
  MemoryConversationStore,
  MemoryToolCallJournal,
  scriptedEngine,
  type RunEvent,
  type ScriptedReply,
} from '../../src/index.js';
import { sharedStores, type SharedStores } from '../support/crashable-stores.js';
import { collect } from '../support/run-events.js';
import { approvedRemove } from '../support/tools.js';

const removeCall = (id: string, note: string): ScriptedReply => ({ toolCalls: [{ id, name: 'remove', arguments: { note } }] });

/** The first page: runs until `stopAt` says so, then the page goes away (its writes fail) and the run ends. */
async function firstPage(
  stores: SharedStores,
  replies: ScriptedReply[],
  tools: Parameters<Agent['tool']>[0][],
  stopAt: (event: RunEvent) => boolean,
  page = stores.page(),
) {
  const agent = await Agent.make(scriptedEngine(replies), { conversations: page.conversations, journal: page.journal });
  for (const tool of tools) agent.tool(tool);
  const run = new ChatRunner().run(agent, 'please tidy my notes', { conversation: 'notes' });
  await collect(run, (event) => {
    if (!stopAt(event)) return;
    page.crash();
    run.abort('page closed');
  });
  await run.result.catch(() => undefined);
}

/** The page after the reload: the same stores, a fresh agent and runner. */
async function secondPage(stores: SharedStores, replies: ScriptedReply[], tools: Parameters<Agent['tool']>[0][]) {
  const agent = await Agent.make(scriptedEngine(replies), { conversations: stores.conversations, journal: stores.journal });
  for (const tool of tools) agent.tool(tool);
  return { agent, runner: new ChatRunner() };
}

const roles = async (stores: SharedStores) => (await stores.conversations.load('notes')).map((m) => m.role);
const toolContents = async (stores: SharedStores) =>
  (await stores.conversations.load('notes')).flatMap((m) => (m.role === 'tool' ? [JSON.parse(m.content) as Record<string, unknown>] : []));

describe('resume after a reload (in-process, shared stores)', () => {
  it('asks again for the approval that waited, runs the call once when approved, and goes on with the model', async () => {
    const stores = sharedStores();
    const ran: string[] = [];
    await firstPage(stores, [removeCall('del', 'groceries')], [approvedRemove(ran)], (e) => e.type === 'approval_requested');
    expect(ran).toEqual([]);

    const { agent, runner } = await secondPage(stores, ['Removed the groceries note.'], [approvedRemove(ran)]);
    const pending = await runner.pendingApprovals(agent, 'notes');
    expect(pending).toMatchObject([{ callId: 'del', call: { id: 'del', name: 'remove', arguments: { note: 'groceries' } } }]);
    expect(typeof pending[0]!.requestedAt).toBe('number');

    const resumed = runner.resume(agent, 'notes');
    const events = await collect(resumed, (e) => e.type === 'approval_requested' && resumed.approve(e.call.id));
    const result = await resumed.result;
    expect(events.filter((e) => e.type === 'approval_requested').map((e) => e.type === 'approval_requested' && e.call.id)).toEqual(['del']);
    expect(ran).toEqual(['groceries']);
    expect(result.text).toBe('Removed the groceries note.');
    expect(result.toolResults).toMatchObject([{ id: 'del', ok: true, output: 'removed groceries' }]);
    expect(await roles(stores)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(await runner.pendingApprovals(agent, 'notes')).toEqual([]);
  });

  it('rejects with nothing_to_resume when the conversation ends with an answer, or does not exist', async () => {
    const stores = sharedStores();
    const { agent, runner } = await secondPage(stores, ['Hello.'], []);
    await runner.run(agent, 'hi', { conversation: 'notes' }).result;
    const done = await runner.resume(agent, 'notes').result.catch((e: unknown) => e);
    expect(isAmbiError(done, 'nothing_to_resume')).toBe(true);
    const missing = runner.resume(agent, 'never-used');
    const events = await collect(missing);
    expect(events.map((e) => e.type)).toEqual(['run_failed']);
    expect(isAmbiError(await missing.result.catch((e: unknown) => e), 'nothing_to_resume')).toBe(true);
    expect(await runner.pendingApprovals(agent, 'never-used')).toEqual([]);
  });

  it('uses the recorded result of a call that finished before the page went away, without running it again', async () => {
    const stores = sharedStores();
    let charges = 0;
    const page = stores.page();
    const charge = defineTool({ name: 'charge', description: 'x', parameters: { type: 'object' }, idempotent: false, call: () => `charge ${++charges}` });
    const charging = defineTool({
      ...charge,
      call: () => {
        // The page goes away as the call finishes: its result is journalled, never stored in the conversation.
        page.crash('conversation');
        return `charge ${++charges}`;
      },
    });
    await firstPage(stores, [{ toolCalls: [{ id: 'pay', name: 'charge', arguments: {} }] }], [charging], (e) => e.type === 'tool_finished', page);
    expect(await roles(stores)).toEqual(['user', 'assistant']);

    const { agent, runner } = await secondPage(stores, ['Paid.'], [charge]);
    const result = await runner.resume(agent, 'notes').result;
    expect(charges).toBe(1);
    expect(result.toolResults).toMatchObject([{ id: 'pay', ok: true, output: 'charge 1' }]);
    expect(await toolContents(stores)).toMatchObject([{ ok: true, output: 'charge 1' }]);
  });

  it('reports outcome_unknown for a non-idempotent call that started and has no end, and never runs it again', async () => {
    const stores = sharedStores();
    let started = 0;
    const send = defineTool({
      name: 'send',
      description: 'x',
      parameters: { type: 'object' },
      idempotent: false,
      call: () => (++started, new Promise(() => {})),
    });
    await firstPage(stores, [{ toolCalls: [{ id: 'mail', name: 'send', arguments: {} }] }], [send], (e) => e.type === 'tool_started');
    const { agent, runner } = await secondPage(stores, ['I could not confirm it was sent.'], [send]);
    const result = await runner.resume(agent, 'notes').result;
    expect(started).toBe(1);
    expect(result.toolResults).toMatchObject([{ id: 'mail', ok: false, error: { code: 'outcome_unknown' } }]);
    expect(result.text).toBe('I could not confirm it was sent.');
  });

  it('runs a call the journal proves never started, and an idempotent one again', async () => {
    const stores = sharedStores();
    let sent = 0;
    let reads = 0;
    const send = defineTool({ name: 'send', description: 'x', parameters: { type: 'object' }, idempotent: false, call: () => ++sent });
    const read = defineTool({ name: 'read', description: 'x', parameters: { type: 'object' }, idempotent: true, call: () => ++reads });
    // What a page that went away right after storing the model's reply leaves.
    await stores.conversations.append('notes', [
      { role: 'user', content: 'send it' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'r', name: 'read', arguments: {}, idempotencyKey: 'key-r' },
          { id: 's', name: 'send', arguments: {}, idempotencyKey: 'key-s' },
        ],
      },
    ]);
    const { agent, runner } = await secondPage(stores, ['Sent.'], [send, read]);
    const result = await runner.resume(agent, 'notes').result;
    expect([reads, sent]).toEqual([1, 1]);
    expect(result.toolResults.map((r) => r.ok)).toEqual([true, true]);
    expect(await stores.journal.get('key-s')).toMatchObject({ state: 'succeeded' });
  });

  it('continues a run that stopped before the model answered its results', async () => {
    const stores = sharedStores();
    await stores.conversations.append('notes', [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'r', name: 'read', arguments: {}, idempotencyKey: 'k' }] },
      { role: 'tool', toolCallId: 'r', name: 'read', content: '{"ok":true,"output":1}' },
    ]);
    const { agent, runner } = await secondPage(stores, ['One.'], []);
    const run = runner.resume(agent, 'notes');
    const events = await collect(run);
    expect((await run.result).text).toBe('One.');
    expect(events[0]).toMatchObject({ type: 'run_started', input: 'hi' });
    expect(await roles(stores)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('a new run() on an interrupted conversation tells the model the call did not run, and nothing is pending any more', async () => {
    const stores = sharedStores();
    const ran: string[] = [];
    await firstPage(stores, [removeCall('del', 'groceries')], [approvedRemove(ran)], (e) => e.type === 'approval_requested');
    const { agent, runner } = await secondPage(stores, ['OK, I did not remove it.'], [approvedRemove(ran)]);
    await runner.run(agent, 'never mind', { conversation: 'notes' }).result;
    expect(ran).toEqual([]);
    expect(await toolContents(stores)).toMatchObject([{ ok: false, error: { code: 'aborted' } }]);
    expect(await runner.pendingApprovals(agent, 'notes')).toEqual([]);
    expect(isAmbiError(await runner.resume(agent, 'notes').result.catch((e: unknown) => e), 'nothing_to_resume')).toBe(true);
  });

  it('a resume waits for the conversation lock held by another run, and with lock: fail is conversation_busy', async () => {
    const conversations = new MemoryConversationStore();
    const journal = new MemoryToolCallJournal();
    const ran: string[] = [];
    const agent = (await Agent.make(scriptedEngine([removeCall('del', 'a'), 'done']), { conversations, journal })).tool(approvedRemove(ran));
    const runner = new ChatRunner();
    const run = runner.run(agent, 'go', { conversation: 'notes' });
    const reader = collect(run, (e) => {
      if (e.type !== 'approval_requested') return;
      // Another "tab" tries to resume while this run holds the conversation.
      void runner
        .resume(agent, 'notes', { lock: 'fail' })
        .result.catch((error: unknown) => error)
        .then((error) => {
          busy = error;
          run.approve(e.call.id);
        });
    });
    let busy: unknown;
    await reader;
    await run.result;
    expect(isAmbiError(busy, 'conversation_busy')).toBe(true);
    expect(ran).toEqual(['a']);
  });
});
