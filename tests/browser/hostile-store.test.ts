// Stored data that is not what the store wrote, and a database that goes away mid-conversation (issue 13, items 18 and 25).
import { deleteDB, unwrap } from 'idb';
import { describe, expect, it, vi } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import { StorageError, type StorageErrorCode } from '../../src/errors/storage-error.js';
import { Agent, ChatRunner, defineTool, scriptedEngine, type Message, type RunEvent } from '../../src/index.js';
import { closeAmbiDatabase, openAmbiDatabase } from '../../src/store/database.js';
import { IndexedDbConversationStore } from '../../src/store/indexeddb-conversation-store.js';
import { IndexedDbSnapshotStore } from '../../src/store/indexeddb-snapshot-store.js';
import { IndexedDbToolCallJournal } from '../../src/store/indexeddb-tool-call-journal.js';
import type { StoredMessage } from '../../src/store/schema.js';
import { rejection, snapshot, useFreshDatabases } from '../contract/store-contracts.js';
import { call, finish, StepEngine, text } from '../support/engines.js';

const freshName = useFreshDatabases();

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });
const empty = { type: 'object', properties: {} } as const;

/** The rejection of `promise`, which must be a StorageError with `code`. */
async function refusal(promise: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(StorageError);
  expect(isAmbiError(error, code)).toBe(true);
  return error as StorageError;
}

/** A store on a fresh database holding `c1` = three messages, and the database's name. */
async function storedConversation() {
  const name = freshName();
  const store = await IndexedDbConversationStore.open(name);
  await store.append('c1', [user('1'), assistant('2'), user('3')]);
  return { name, store };
}

/** A tool `wipe` that deletes the database `name`, then says so. */
const wipeTool = (name: string) =>
  defineTool({
    name: 'wipe',
    description: 'x',
    parameters: empty,
    idempotent: true,
    call: async () => {
      await deleteDB(name);
      return 'wiped';
    },
  });

/** Write a raw row or record as something other than ambi-web (a bug, an extension, a hand in DevTools) would. */
async function writeRaw(name: string, storeName: 'messages' | 'conversations' | 'journal' | 'snapshots', value: unknown) {
  await (await openAmbiDatabase(name)).put(storeName, value as never);
}

/** Every raw message row of a conversation, as stored. */
async function rawRows(name: string, id: string): Promise<StoredMessage[]> {
  return (await openAmbiDatabase(name)).getAll('messages', IDBKeyRange.bound([id, 0], [id, Infinity]));
}

describe('a corrupted stored conversation', () => {
  it('a row without its message makes load reject with storage_corrupt, naming the message and the intact prefix', async () => {
    const { name, store } = await storedConversation();
    await writeRaw(name, 'messages', { conversationId: 'c1', seq: 1 });

    const error = await refusal(store.load('c1'), 'storage_corrupt');

    expect(error.message).toContain('conversation "c1"');
    expect(error.message).toContain('message 1');
    expect(error.message).toContain('truncate("c1", 1)');
  });

  it('a gap in the stored messages makes load reject with storage_corrupt', async () => {
    const { name, store } = await storedConversation();
    await (await openAmbiDatabase(name)).delete('messages', ['c1', 1]);
    const error = await refusal(store.load('c1'), 'storage_corrupt');
    expect(error.message).toContain('message 1 is missing');
  });

  it('a stored conversation that starts with an orphan tool message makes load reject with storage_corrupt', async () => {
    const name = freshName();
    const store = await IndexedDbConversationStore.open(name);
    // What a run that carried on in a fresh database used to leave behind.
    await writeRaw(name, 'conversations', { id: 'c1', length: 2, createdAt: 1, updatedAt: 1 });
    await writeRaw(name, 'messages', { conversationId: 'c1', seq: 0, message: { role: 'tool', toolCallId: 't1', name: 'add', content: '{}' } });
    await writeRaw(name, 'messages', { conversationId: 'c1', seq: 1, message: assistant('done') });
    const error = await refusal(store.load('c1'), 'storage_corrupt');
    expect(error.message).toContain('answers no call');
  });

  it('a run on a corrupted conversation fails with storage_corrupt, not a TypeError, and changes no stored row', async () => {
    const { name, store } = await storedConversation();
    await writeRaw(name, 'messages', { conversationId: 'c1', seq: 1 });
    const before = await rawRows(name, 'c1');
    const agent = await Agent.make(scriptedEngine(['never asked']), { conversations: store });

    const run = new ChatRunner().run(agent, 'hello again', { conversation: 'c1' });
    const events: RunEvent[] = [];
    for await (const event of run.events) events.push(event);

    await refusal(run.result, 'storage_corrupt');
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'storage_corrupt' } });
    expect(await rawRows(name, 'c1')).toEqual(before);
  });

  it('truncating to the intact prefix the error names makes the conversation usable again', async () => {
    const { name, store } = await storedConversation();
    await writeRaw(name, 'messages', { conversationId: 'c1', seq: 1 });
    await store.truncate('c1', 1);
    await store.append('c1', [assistant('2 again')]);
    expect(await store.load('c1')).toEqual([user('1'), assistant('2 again')]);
  });

  it('an append to a conversation whose record lost its length lands after the stored messages', async () => {
    const { name, store } = await storedConversation();
    await writeRaw(name, 'conversations', { id: 'c1', createdAt: 1, updatedAt: 1 });
    await store.append('c1', [assistant('4')]);
    expect(await store.load('c1')).toEqual([user('1'), assistant('2'), user('3'), assistant('4')]);
    expect((await store.list()).map(({ id, length }) => ({ id, length }))).toEqual([{ id: 'c1', length: 4 }]);
  });

  it('an append to a conversation whose record holds a short length never overwrites stored messages', async () => {
    const { name, store } = await storedConversation();
    await writeRaw(name, 'conversations', { id: 'c1', length: 1, createdAt: 1, updatedAt: 1 });
    await store.append('c1', [assistant('4')]);
    expect(await store.load('c1')).toEqual([user('1'), assistant('2'), user('3'), assistant('4')]);
    expect((await store.list())[0]).toMatchObject({ id: 'c1', length: 4 });
  });

  it('a record without valid times makes list reject with storage_corrupt; truncating or appending repairs it', async () => {
    const { name, store } = await storedConversation();
    await writeRaw(name, 'conversations', { id: 'c1', length: 3, createdAt: 'yesterday', updatedAt: 1 });
    const error = await refusal(store.list(), 'storage_corrupt');
    expect(error.message).toContain('conversation "c1"');
    await store.truncate('c1', 2);
    expect((await store.list())[0]).toMatchObject({ id: 'c1', length: 2, createdAt: expect.any(Number) });
  });

  it('list counts the messages of a legacy record without a length (or with one that is not a count), and reads the others’ lengths', async () => {
    const { name, store } = await storedConversation();
    await store.append('c2', [user('1')]);
    await store.append('c3', [user('1'), assistant('2')]);
    await writeRaw(name, 'conversations', { id: 'c1', createdAt: 1, updatedAt: 1 });
    await writeRaw(name, 'conversations', { id: 'c2', length: -1, createdAt: 2, updatedAt: 2 });
    await writeRaw(name, 'conversations', { id: 'c3', length: '2', createdAt: 3, updatedAt: 3 });
    await store.append('c4', [user('1'), assistant('2'), user('3'), assistant('4'), user('5')]);
    const counted = vi.spyOn(IDBObjectStore.prototype, 'count');
    const listed = await store.list();
    vi.restoreAllMocks();
    expect(listed.map(({ id, length }) => ({ id, length }))).toEqual([
      { id: 'c1', length: 3 },
      { id: 'c2', length: 1 },
      { id: 'c3', length: 2 },
      { id: 'c4', length: 5 },
    ]);
    expect(counted).toHaveBeenCalledTimes(3);
  });

  it('a record whose length disagrees with its messages is listed as it says (list never counts a counted record) and repaired by the next write', async () => {
    const { name, store } = await storedConversation();
    await writeRaw(name, 'conversations', { id: 'c1', length: 99, createdAt: 1, updatedAt: 1 });
    expect((await store.list())[0]).toMatchObject({ id: 'c1', length: 99 });
    expect(await store.load('c1')).toEqual([user('1'), assistant('2'), user('3')]);
    await store.append('c1', [assistant('4')]);
    expect((await store.list())[0]).toMatchObject({ id: 'c1', length: 4 });
  });
});

describe('a database deleted or closed mid-conversation', () => {
  it('deleting the database during a tool call fails the run with storage_closed, and no conversation starts with an orphan tool message', async () => {
    const { name, store } = await storedConversation();
    const wipe = wipeTool(name);
    const engine = scriptedEngine([{ toolCalls: [{ id: 't1', name: 'wipe', arguments: {} }] }, 'finished']);
    const agent = (await Agent.make(engine, { conversations: store })).tool(wipe);

    const error = await refusal(new ChatRunner().run(agent, 'wipe it', { conversation: 'c1' }).result, 'storage_closed');

    expect(error.message).toContain('deleted');
    expect(await (await IndexedDbConversationStore.open(name)).list()).toEqual([]);
    expect(await rawRows(name, 'c1')).toEqual([]);
  });

  it('deleting the database during a model turn fails the run with storage_closed before its reply is stored anywhere', async () => {
    const { name, store } = await storedConversation();
    // A thenable: the deletion starts when the turn awaits it, after the run stored its opening.
    const deletion = { then: (done: () => void, fail: (e: unknown) => void) => deleteDB(name).then(done, fail) } as unknown as Promise<void>;
    const engine = new StepEngine([[{ type: 'wait', until: deletion }, text('a reply'), finish()]]);
    const agent = await Agent.make(engine, { conversations: store });

    await refusal(new ChatRunner().run(agent, 'hello', { conversation: 'c1' }).result, 'storage_closed');

    expect(await (await IndexedDbConversationStore.open(name)).list()).toEqual([]);
  });

  it('after a deletion the store still serves new conversations; the lost one stays refused until deleted', async () => {
    const { name, store } = await storedConversation();
    await deleteDB(name);

    await store.append('c2', [user('new')]);
    expect(await store.load('c2')).toEqual([user('new')]);
    await refusal(store.load('c1'), 'storage_closed');
    await refusal(store.truncate('c1', 0), 'storage_closed');
    await store.delete('c1');
    expect(await store.load('c1')).toEqual([]);
  });

  it('after the database is deleted, the journal refuses to begin a call of the conversation that was in use, so the call never runs', async () => {
    const { name, store } = await storedConversation();
    const journal = await IndexedDbToolCallJournal.open(name);
    await deleteDB(name);
    await refusal(journal.begin({ idempotencyKey: 'k1', callId: 't1', name: 'pay', arguments: {}, conversation: 'c1' }), 'storage_closed');
    expect(await journal.get('k1')).toBeUndefined();
    await journal.begin({ idempotencyKey: 'k2', callId: 't2', name: 'pay', arguments: {}, conversation: 'c2' });
    await refusal(store.load('c1'), 'storage_closed');
  });

  it('a consequential call queued behind the call that deleted the database is not run', async () => {
    const { name, store } = await storedConversation();
    let charges = 0;
    const wipe = wipeTool(name);
    const charge = defineTool({ name: 'charge', description: 'x', parameters: empty, idempotent: false, call: () => ++charges });
    const engine = new StepEngine([
      [call('t1', 'wipe'), call('t2', 'charge'), finish('tool_calls')],
      [text('done'), finish()],
    ]);
    const journal = await IndexedDbToolCallJournal.open(name);
    const agent = (await Agent.make(engine, { conversations: store, journal })).tool(wipe).tool(charge);

    // One call at a time: the charge starts only once the wipe has finished.
    await refusal(new ChatRunner(1).run(agent, 'wipe, then charge', { conversation: 'c1' }).result, 'storage_closed');

    expect(charges).toBe(0);
  });

  it('a connection the browser closes (its close event) fails the conversations in use with storage_closed', async () => {
    const { name, store } = await storedConversation();
    const raw = unwrap(await openAmbiDatabase(name));
    // What the browser does on a forced close (site data cleared, a disk failure): close, then a `close` event.
    raw.close();
    raw.dispatchEvent(new Event('close'));
    const error = await refusal(store.append('c1', [assistant('4')]), 'storage_closed');
    expect(error.message).toContain('closed by the browser');
  });

  it('a database deleted while this realm held no connection is noticed when it is opened again', async () => {
    const { name, store } = await storedConversation();
    await closeAmbiDatabase(name);
    await deleteDB(name);
    await refusal(store.append('c1', [assistant('4')]), 'storage_closed');
    expect(await (await IndexedDbConversationStore.open(name)).list()).toEqual([]);
  });

  it('closing the database on purpose (closeAmbiDatabase) keeps its conversations usable', async () => {
    const { name, store } = await storedConversation();
    await closeAmbiDatabase(name);
    await store.append('c1', [assistant('4')]);
    expect(await store.load('c1')).toEqual([user('1'), assistant('2'), user('3'), assistant('4')]);
  });
});

describe('corrupted journal entries and snapshots', () => {
  const entry = { idempotencyKey: 'k1', callId: 't1', name: 'pay', arguments: {}, conversation: 'c1', updatedAt: 1 };

  it('a journal entry in an unknown state makes get and listByConversation reject with storage_corrupt', async () => {
    const name = freshName();
    const journal = await IndexedDbToolCallJournal.open(name);
    await writeRaw(name, 'journal', { ...entry, state: 'paid' });
    await refusal(journal.get('k1'), 'storage_corrupt');
    await refusal(journal.listByConversation('c1'), 'storage_corrupt');
  });

  it('a run over a finished journal entry whose result is not a tool result tells the model the outcome is unknown', async () => {
    const name = freshName();
    const conversations = await IndexedDbConversationStore.open(name);
    const journal = await IndexedDbToolCallJournal.open(name);
    const reply: Message = { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'pay', arguments: {}, idempotencyKey: 'k1' }] };
    await conversations.append('c1', [user('pay'), reply]);
    await writeRaw(name, 'journal', { ...entry, state: 'succeeded', result: { ok: true } });
    const pay = defineTool({ name: 'pay', description: 'x', parameters: empty, idempotent: false, call: () => 'paid again' });
    const engine = new StepEngine([[text('Let me check.'), finish()]]);
    const agent = (await Agent.make(engine, { conversations, journal })).tool(pay);

    await new ChatRunner().run(agent, 'did it work?', { conversation: 'c1' }).result;

    const sent = engine.requests[0]!.messages.find((m) => m.role === 'tool');
    expect(sent).toMatchObject({ role: 'tool', toolCallId: 't1', name: 'pay' });
    expect(JSON.parse(sent!.role === 'tool' ? sent!.content : '{}').error.code).toBe('outcome_unknown');
  });

  it('a finished journal entry whose result answers another call is corrupt: the run tells the model the outcome is unknown, never an orphan', async () => {
    const name = freshName();
    const conversations = await IndexedDbConversationStore.open(name);
    const journal = await IndexedDbToolCallJournal.open(name);
    const reply: Message = { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'pay', arguments: {}, idempotencyKey: 'k1' }] };
    await conversations.append('c1', [user('pay'), reply]);
    const elsewhere = { id: 'another-call', name: 'pay', ok: true, output: 'paid', attempts: 1, durationMs: 1 };
    await writeRaw(name, 'journal', { ...entry, state: 'succeeded', result: elsewhere });
    await refusal(journal.get('k1'), 'storage_corrupt');
    const engine = new StepEngine([[text('Let me check.'), finish()]]);
    const agent = await Agent.make(engine, { conversations, journal });

    await new ChatRunner().run(agent, 'did it work?', { conversation: 'c1' }).result;

    const tools = engine.requests[0]!.messages.filter((m) => m.role === 'tool');
    expect(tools.map((m) => m.role === 'tool' && [m.toolCallId, JSON.parse(m.content).error?.code])).toEqual([['t1', 'outcome_unknown']]);
  });

  it('a snapshot stored without its messages makes get and list reject with storage_corrupt', async () => {
    const name = freshName();
    const snapshots = await IndexedDbSnapshotStore.open(name);
    await writeRaw(name, 'snapshots', { ...snapshot('a'), messages: undefined });
    await refusal(snapshots.get('a'), 'storage_corrupt');
    await refusal(snapshots.list(), 'storage_corrupt');
  });
});
