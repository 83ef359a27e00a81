import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createWorkerRunner,
  defineTool,
  IndexedDbConversationStore,
  isAmbiError,
  scriptedEngine,
  type RunEvent,
  type ScriptedReply,
  type WorkerRunner,
} from '../../src/index.js';
import { upgradeSchema, type AmbiDbSchema } from '../../src/store/schema.js';
import { freshDatabases } from '../support/fresh-databases.js';
import { collect } from '../support/run-events.js';
import { approvedRemove, removeCall } from '../support/tools.js';
import { openRunners } from '../support/worker-runners.js';

const runners = openRunners();
const databases = freshDatabases('resume');
afterEach(async () => {
  runners.closeAll();
  await databases.deleteAll();
});

function page(database: string, replies: ScriptedReply[], ran: string[]): WorkerRunner {
  return runners.keep(createWorkerRunner({ engine: scriptedEngine(replies), database }).tool(approvedRemove(ran)));
}

const ofType = <T extends RunEvent['type']>(events: RunEvent[], type: T) => events.filter((e): e is Extract<RunEvent, { type: T }> => e.type === type);

describe('resume through the WorkerRunner, on real IndexedDB', () => {
  it('closed while a card waits, a new runner on the same database lists it, resumes, and the page tool runs once on approval', async () => {
    const database = databases.fresh();
    const ran: string[] = [];
    const first = page(database, [removeCall('del', 'groceries')], ran);
    const run = first.run('remove my groceries note', { conversation: 'notes' });
    for await (const event of run.events) if (event.type === 'approval_requested') first.close();
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'closed')).toBe(true);

    const second = page(database, ['Removed it.'], ran);
    const pending = await second.pendingApprovals('notes');
    expect(pending).toMatchObject([{ callId: 'del', call: { name: 'remove', arguments: { note: 'groceries' } } }]);
    expect(pending[0]!.requestedAt).toBeGreaterThan(0);
    const resumed = second.resume('notes');
    const events = await collect(resumed, (e) => e.type === 'approval_requested' && resumed.approve(e.call.id));
    expect((await resumed.result).text).toBe('Removed it.');
    expect(ofType(events, 'approval_requested').map((e) => e.call.id)).toEqual(['del']);
    expect(ran).toEqual(['groceries']);
    expect(await second.pendingApprovals('notes')).toEqual([]);
    const stored = await (await IndexedDbConversationStore.open(database)).load('notes');
    expect(stored.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // Once more: nothing is left to resume.
    expect(isAmbiError(await second.resume('notes').result.catch((e: unknown) => e), 'nothing_to_resume')).toBe(true);
  });

  it('fault: the runner worker killed while an approved non-idempotent call runs; resumed, the model is told outcome_unknown and the call is not repeated', async () => {
    const database = databases.fresh();
    let charges = 0;
    const charge = defineTool({
      name: 'charge',
      description: 'Charge the card',
      parameters: { type: 'object' },
      idempotent: false,
      needsApproval: true,
      call: () => {
        charges++;
        return new Promise(() => {});
      },
    });
    const first = runners.keep(
      createWorkerRunner({ engine: scriptedEngine([{ toolCalls: [{ id: 'pay', name: 'charge', arguments: {} }] }]), database }).tool(charge),
    );
    const run = first.run('pay', { conversation: 'bill' });
    for await (const event of run.events) {
      if (event.type === 'approval_requested') run.approve(event.call.id);
      if (event.type === 'tool_started') first.close();
    }
    await run.result.catch(() => undefined);
    expect(charges).toBe(1);

    const second = runners.keep(createWorkerRunner({ engine: scriptedEngine(['I cannot tell whether the charge went through.']), database }).tool(charge));
    expect(await second.pendingApprovals('bill')).toEqual([]);
    const resumed = second.resume('bill');
    const events = await collect(resumed);
    const result = await resumed.result;
    expect(charges).toBe(1);
    expect(ofType(events, 'approval_requested')).toEqual([]);
    expect(result.toolResults).toMatchObject([{ id: 'pay', ok: false, error: { code: 'outcome_unknown' } }]);
    const told = result.messages.find((m) => m.role === 'tool');
    expect(told && JSON.parse(told.content).error.code).toBe('outcome_unknown');
    expect(result.text).toBe('I cannot tell whether the charge went through.');
  });

  it('suspend() in the worker keeps the card pending; another runner resumes it and an always-allow stands for later calls', async () => {
    const database = databases.fresh();
    const ran: string[] = [];
    const first = page(database, [removeCall('a', 'one')], ran);
    const run = first.run('remove one', { conversation: 'notes' });
    await collect(run, (e) => e.type === 'approval_requested' && run.suspend());
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'suspended')).toBe(true);
    expect(await first.pendingApprovals('notes')).toMatchObject([{ callId: 'a' }]);

    const second = page(database, ['Removed one.', removeCall('b', 'two'), 'Removed two.'], ran);
    const resumed = second.resume('notes');
    await collect(resumed, (e) => e.type === 'approval_requested' && resumed.approve(e.call.id, { always: true }));
    await resumed.result;
    const later = second.run('remove two', { conversation: 'notes' });
    const events = await collect(later);
    await later.result;
    expect(ofType(events, 'approval_requested')).toEqual([]);
    expect(ofType(events, 'approval_resolved')).toMatchObject([{ callId: 'b', approved: true, standing: true }]);
    expect(ran).toEqual(['one', 'two']);
  });

  it('suspend() while a page tool runs aborts it and journals it: the resume reports it aborted and does not run it again', async () => {
    const database = databases.fresh();
    let started = 0;
    let aborted = 0;
    const upload = defineTool({
      name: 'upload',
      description: 'Upload the notes',
      parameters: { type: 'object' },
      idempotent: false,
      call: (_args, { signal }) => {
        started++;
        return new Promise((_, reject) =>
          signal.addEventListener('abort', () => {
            aborted++;
            reject(signal.reason);
          }),
        );
      },
    });
    const first = runners.keep(
      createWorkerRunner({ engine: scriptedEngine([{ toolCalls: [{ id: 'up', name: 'upload', arguments: {} }] }]), database }).tool(upload),
    );
    const run = first.run('upload', { conversation: 'notes' });
    await collect(run, (e) => e.type === 'tool_started' && run.suspend());
    expect(isAmbiError(await run.result.catch((e: unknown) => e), 'suspended')).toBe(true);
    expect([started, aborted]).toEqual([1, 1]);

    const second = runners.keep(createWorkerRunner({ engine: scriptedEngine(['The upload was stopped.']), database }).tool(upload));
    const result = await second.resume('notes').result;
    expect(started).toBe(1);
    expect(result.toolResults).toMatchObject([{ id: 'up', ok: false, error: { code: 'aborted' } }]);
    expect(result.text).toBe('The upload was stopped.');
  });

  it('a leaf cut off while its call waited for approval: not listed, and resumed as leaf_interrupted; its call never runs', async () => {
    const database = databases.fresh();
    const ran: string[] = [];
    const first = runners.keep(
      createWorkerRunner({
        engine: scriptedEngine([{ toolCalls: [{ id: 'job', name: 'spawn_leaf', arguments: { task: 'remove old notes' } }] }, removeCall('leafdel', 'old')]),
        database,
        leaf: {},
      }).tool(approvedRemove(ran)),
    );
    const run = first.run('tidy', { conversation: 'notes' });
    for await (const event of run.events) if (event.type === 'approval_requested' && event.leafId) first.close();
    await run.result.catch(() => undefined);

    const second = runners.keep(createWorkerRunner({ engine: scriptedEngine(['The helper was cut off.']), database, leaf: {} }).tool(approvedRemove(ran)));
    expect(await second.pendingApprovals('notes')).toEqual([]);
    const result = await second.resume('notes').result;
    expect(ran).toEqual([]);
    expect(result.toolResults).toMatchObject([{ id: 'job', ok: false, error: { code: 'leaf_interrupted' } }]);
    expect(result.text).toBe('The helper was cut off.');
  });

  it('edited arguments cross to the worker: the page tool runs with them', async () => {
    const database = databases.fresh();
    const ran: string[] = [];
    const runner = page(database, [removeCall('a', 'all'), 'Removed the draft.'], ran);
    const run = runner.run('remove', { conversation: 'notes' });
    await collect(run, (e) => e.type === 'approval_requested' && run.approve(e.call.id, { arguments: { note: 'draft' } }));
    expect((await run.result).toolResults).toMatchObject([{ ok: true, output: 'removed draft', editedArguments: { note: 'draft' } }]);
    expect(ran).toEqual(['draft']);
  });

  it('two runners ("tabs") on one database: the card answered in one is never asked in the other, and the call runs once', async () => {
    const database = databases.fresh();
    const ran: string[] = [];
    const tabA = page(database, [removeCall('del', 'groceries'), 'Removed (tab A).'], ran);
    const tabB = page(database, ['unused'], ran);
    const run = tabA.run('remove groceries', { conversation: 'notes' });
    const events: RunEvent[] = [];
    let resumedInB: ReturnType<WorkerRunner['resume']> | undefined;
    let eventsInB: Promise<RunEvent[]> | undefined;
    for await (const event of run.events) {
      events.push(event);
      if (event.type !== 'approval_requested') continue;
      // Tab B shows the same card, and its resume waits for tab A's lock on the conversation.
      expect(await tabB.pendingApprovals('notes')).toMatchObject([{ callId: 'del' }]);
      resumedInB = tabB.resume('notes');
      eventsInB = collect(resumedInB);
      run.approve(event.call.id);
    }
    expect((await run.result).text).toBe('Removed (tab A).');
    expect(isAmbiError(await resumedInB!.result.catch((e: unknown) => e), 'nothing_to_resume')).toBe(true);
    expect(ofType(await eventsInB!, 'approval_requested')).toEqual([]);
    expect(ran).toEqual(['groceries']);
    expect(await tabB.pendingApprovals('notes')).toEqual([]);
  });
});

describe('approvals in the database', () => {
  it('a version 3 database gains the call records and keeps its conversations', async () => {
    const name = databases.fresh();
    const v3 = await openDB<AmbiDbSchema>(name, 3, { upgrade: (db, oldVersion) => upgradeSchema(db, oldVersion, 3) });
    await v3.put('conversations', { id: 'c1', length: 1, createdAt: 1, updatedAt: 1 });
    await v3.put('messages', { conversationId: 'c1', seq: 0, message: { role: 'user', content: 'from v3' } });
    v3.close();
    const store = await IndexedDbConversationStore.open(name);
    expect(await store.load('c1')).toEqual([{ role: 'user', content: 'from v3' }]);
    await store.journal.ask({ idempotencyKey: 'k', callId: 'x', name: 'remove', arguments: {}, conversation: 'c1', requestedAt: 5 });
    expect(await store.journal.listByConversation('c1')).toMatchObject([{ callId: 'x', conversation: 'c1', state: 'asked', requestedAt: 5 }]);
  });

  it('a version 6 database’s approvals move into their calls’ records, none lost: what waited is listed and asked again, what was approved and started is never run twice', async () => {
    const name = databases.fresh();
    const v6 = await openDB<AmbiDbSchema>(name, 6, { upgrade: (db, oldVersion) => upgradeSchema(db, oldVersion, 6) });
    const waiting = { id: 'del', name: 'remove', arguments: { note: 'groceries' }, idempotencyKey: 'k-del' };
    const started = { id: 'pay', name: 'remove', arguments: { note: 'rent' }, idempotencyKey: 'k-pay' };
    const keyless = { id: 'old', name: 'remove', arguments: { note: 'ancient' } };
    await v6.put('conversations', { id: 'notes', length: 2, createdAt: 1, updatedAt: 1 });
    await v6.put('messages', { conversationId: 'notes', seq: 0, message: { role: 'user', content: 'tidy up' } });
    await v6.put('messages', { conversationId: 'notes', seq: 1, message: { role: 'assistant', content: '', toolCalls: [waiting, started] } });
    await v6.put('approvals', { conversation: 'notes', callId: 'del', call: waiting, requestedAt: 10, tool: 'remove@1', runId: 'r1' });
    await v6.put('approvals', { conversation: 'notes', callId: 'pay', call: started, requestedAt: 11, decision: { approved: true, decidedAt: 12 } });
    await v6.put('approvals', { conversation: 'other', callId: 'old', call: keyless, requestedAt: 3 });
    await v6.put('approvals', { conversation: 'notes', callId: 'junk', call: 'not a call', requestedAt: 1 } as never);
    // The approved call had started when the page went away: its journal entry says so.
    await v6.put('journal', {
      idempotencyKey: 'k-pay',
      callId: 'pay',
      name: 'remove',
      arguments: { note: 'rent' },
      conversation: 'notes',
      state: 'started',
      updatedAt: 13,
    });
    v6.close();

    const store = await IndexedDbConversationStore.open(name);
    expect(await store.journal.get('k-del')).toMatchObject({
      state: 'asked',
      callId: 'del',
      requestedAt: 10,
      tool: 'remove@1',
      runId: 'r1',
      conversation: 'notes',
    });
    expect(await store.journal.get('k-pay')).toMatchObject({ state: 'started', requestedAt: 11, decision: { approved: true, decidedAt: 12 } });
    expect(await store.journal.listByConversation('other')).toMatchObject([
      { idempotencyKey: 'legacy:other:old', state: 'asked', arguments: { note: 'ancient' } },
    ]);
    const db = await openDB(name);
    expect([...db.objectStoreNames]).not.toContain('approvals');
    db.close();

    const ran: string[] = [];
    const runner = page(name, ['Removed the groceries note.'], ran);
    expect(await runner.pendingApprovals('notes')).toMatchObject([{ callId: 'del', requestedAt: 10 }]);
    const resumed = runner.resume('notes');
    const events = await collect(resumed, (e) => e.type === 'approval_requested' && resumed.approve(e.call.id));
    const result = await resumed.result;
    expect(ofType(events, 'approval_requested').map((e) => e.call.id)).toEqual(['del']);
    expect(ran).toEqual(['groceries']);
    expect(result.toolResults).toMatchObject([
      { id: 'del', ok: true },
      { id: 'pay', ok: false, error: { code: 'outcome_unknown' } },
    ]);
  });

  it('deleting a conversation deletes its calls’ records and standing decisions, and no other conversation’s', async () => {
    const store = await IndexedDbConversationStore.open(databases.fresh());
    for (const id of ['c1', 'c2']) {
      await store.append(id, [{ role: 'user', content: 'hi' }]);
      await store.journal.ask({ idempotencyKey: `k-${id}`, callId: 'x', name: 'remove', arguments: {}, conversation: id, requestedAt: 1 });
      await store.journal.setStanding({ conversation: id, tool: 'remove', approved: true, decidedAt: 2 });
    }
    await store.delete('c1');
    expect(await store.journal.listByConversation('c1')).toEqual([]);
    expect(await store.journal.standing('c1', 'remove')).toBeUndefined();
    expect(await store.journal.listByConversation('c2')).toHaveLength(1);
    expect(await store.journal.standing('c2', 'remove')).toMatchObject({ approved: true });
  });

  it('a corrupt stored record is refused with storage_corrupt; a resume then never runs the call (it cannot tell whether it started), and says why', async () => {
    const database = databases.fresh();
    const ran: string[] = [];
    const first = page(database, [removeCall('del', 'x')], ran);
    const run = first.run('remove', { conversation: 'notes' });
    for await (const event of run.events) if (event.type === 'approval_requested') first.close();
    await run.result.catch(() => undefined);
    const store = await IndexedDbConversationStore.open(database);
    const [record] = await store.journal.listByConversation('notes');
    // Something else wrote over the record: a decision that is not one.
    const db = await openDB(database);
    await db.put('journal', { ...record, state: 'decided', decision: { approved: 'yes' } });
    db.close();
    await expect(store.journal.get(record!.idempotencyKey)).rejects.toMatchObject({ code: 'storage_corrupt' });

    const second = page(database, ['Not removed.'], ran);
    const resumed = second.resume('notes');
    const events = await collect(resumed, (e) => e.type === 'approval_requested' && resumed.approve(e.call.id));
    const result = await resumed.result;
    expect(ofType(events, 'approval_requested')).toHaveLength(0);
    expect(ofType(events, 'warning').map((e) => e.code)).toContain('approval_not_stored');
    expect(result.toolResults).toMatchObject([{ id: 'del', ok: false, error: { code: 'outcome_unknown' } }]);
    expect(ran).toEqual([]);
  });
});
