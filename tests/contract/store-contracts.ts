// The stores' specification, run unchanged against the memory stores (Node) and IndexedDB (Chromium).
import { deleteDB } from 'idb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import { JournalError } from '../../src/errors/journal-error.js';
import type { CallHandle } from '../../src/core/types.js';
import { StorageError } from '../../src/errors/storage-error.js';
import type { JournalBegin } from '../../src/store/journal-transitions.js';
import type { JournalEntry, LeafSnapshot, SnapshotStore, ToolCallJournal } from '../../src/store/types.js';
import type { ToolResult } from '../../src/core/types.js';
import { freshDatabases } from '../support/fresh-databases.js';

/** A store under test and how to clean up after it. */
export interface StoreFixture<S> {
  store: S;
  dispose(): Promise<void>;
}

/** A journal with the conversation listing both implementations add to `ToolCallJournal`. */
export type ListingJournal = ToolCallJournal & { listByConversation(conversation: string): Promise<JournalEntry[]> };

/** A leaf snapshot with the given id and creation time. */
export function snapshot(id: string, createdAt = 1000, overrides: Partial<LeafSnapshot> = {}): LeafSnapshot {
  return {
    id,
    parentRunId: 'run-1',
    parentCallId: 'call-1',
    task: `task of ${id}`,
    messages: [
      { role: 'system', content: 'You are a leaf.' },
      { role: 'user', content: `task of ${id}` },
    ],
    tools: ['search'],
    status: 'running',
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

/** A value no structured clone accepts (IndexedDB refuses it with a DataCloneError). */
export const uncloneable = () => 'a function cannot be stored';

/** The rejection of `promise`, which must reject. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (error: unknown) => error,
  );
}

/** Specify a SnapshotStore. */
export function describeSnapshotStore(label: string, make: () => Promise<StoreFixture<SnapshotStore>>): void {
  describe(`${label} snapshot store`, () => {
    let fixture: StoreFixture<SnapshotStore>;
    let store: SnapshotStore;
    beforeEach(async () => {
      fixture = await make();
      store = fixture.store;
    });
    afterEach(() => fixture.dispose());

    it('get returns the snapshot put stored', async () => {
      await store.put(snapshot('a'));
      expect(await store.get('a')).toEqual(snapshot('a'));
    });

    it('get of an unknown id is undefined', async () => {
      expect(await store.get('missing')).toBeUndefined();
    });

    it('put under an existing id replaces the snapshot', async () => {
      await store.put(snapshot('a'));
      await store.put(snapshot('a', 1000, { status: 'done', result: 'finished', updatedAt: 2000 }));
      expect(await store.get('a')).toMatchObject({ status: 'done', result: 'finished', updatedAt: 2000 });
      expect(await store.list()).toHaveLength(1);
    });

    it('list returns every snapshot, oldest createdAt first', async () => {
      await store.put(snapshot('middle', 2000));
      await store.put(snapshot('newest', 3000));
      await store.put(snapshot('oldest', 1000));
      expect((await store.list()).map((s) => s.id)).toEqual(['oldest', 'middle', 'newest']);
    });

    it('list orders snapshots created at the same time by id', async () => {
      await store.put(snapshot('b', 1000));
      await store.put(snapshot('a', 1000));
      expect((await store.list()).map((s) => s.id)).toEqual(['a', 'b']);
    });

    it('delete removes the snapshot and keeps the others', async () => {
      await store.put(snapshot('a', 1000));
      await store.put(snapshot('b', 2000));
      await store.delete('a');
      expect(await store.get('a')).toBeUndefined();
      expect((await store.list()).map((s) => s.id)).toEqual(['b']);
    });

    it('delete of an unknown id resolves', async () => {
      await expect(store.delete('missing')).resolves.toBeUndefined();
    });

    it('changing a snapshot after put does not change the stored one', async () => {
      const written = snapshot('a');
      await store.put(written);
      written.task = 'changed';
      written.messages.push({ role: 'user', content: 'added' });
      expect(await store.get('a')).toEqual(snapshot('a'));
    });

    it('changing a snapshot returned by get does not change the stored one', async () => {
      await store.put(snapshot('a'));
      const read = await store.get('a');
      read!.messages.length = 0;
      expect(await store.get('a')).toEqual(snapshot('a'));
    });

    it('put of an uncloneable value rejects with storage_uncloneable and stores nothing', async () => {
      const bad = snapshot('a', 1000, { error: { code: 'x', message: uncloneable as unknown as string } });
      const error = await rejection(store.put(bad));
      expect(error).toBeInstanceOf(StorageError);
      expect(isAmbiError(error, 'storage_uncloneable')).toBe(true);
      expect((error as StorageError).cause).toMatchObject({ name: 'DataCloneError' });
      expect(await store.get('a')).toBeUndefined();
    });

    it.each<[string, Partial<Record<keyof LeafSnapshot, unknown>>]>([
      ['an id that is not a string', { id: 7 }],
      ['no id', { id: undefined }],
      ['a createdAt that is not a number', { createdAt: '2024-01-01' }],
      ['no createdAt', { createdAt: undefined }],
      ['a status that is not running, done or failed', { status: 'paused' }],
    ])('put of a snapshot with %s rejects with storage_invalid and stores nothing', async (_what, fields) => {
      const error = await rejection(store.put({ ...snapshot('a'), ...fields } as LeafSnapshot));
      expect(error).toBeInstanceOf(StorageError);
      expect(isAmbiError(error, 'storage_invalid')).toBe(true);
      expect(await store.list()).toEqual([]);
    });
  });
}

const ok = (id: string): ToolResult => ({ id, name: 'pay', ok: true, output: { paid: true }, attempts: 1, durationMs: 5 });
const failed = (id: string): ToolResult => ({
  id,
  name: 'pay',
  ok: false,
  error: { code: 'tool_error', message: 'card declined' },
  attempts: 1,
  durationMs: 5,
});
const call = (key: string, conversation?: string) => ({
  idempotencyKey: key,
  callId: `call-${key}`,
  name: 'pay',
  arguments: { amount: 10 },
  ...(conversation === undefined ? {} : { conversation }),
});

/** Specify a ToolCallJournal. */
export function describeToolCallJournal(label: string, make: () => Promise<StoreFixture<ListingJournal>>): void {
  describe(`${label} tool-call journal`, () => {
    let fixture: StoreFixture<ListingJournal>;
    let journal: ListingJournal;
    beforeEach(async () => {
      fixture = await make();
      journal = fixture.store;
    });
    afterEach(() => fixture.dispose());

    it('begin records the call as started', async () => {
      await journal.begin(call('k1', 'conv-1'));
      expect(await journal.get('k1')).toEqual({
        ...call('k1', 'conv-1'),
        state: 'started',
        updatedAt: expect.any(Number),
      });
    });

    it('finish with an ok result records succeeded and the result', async () => {
      await journal.begin(call('k1'));
      await journal.finish('k1', ok('call-k1'));
      expect(await journal.get('k1')).toMatchObject({ state: 'succeeded', result: ok('call-k1'), callId: 'call-k1' });
    });

    it('finish with a failed result records failed and the result', async () => {
      await journal.begin(call('k1'));
      await journal.finish('k1', failed('call-k1'));
      expect(await journal.get('k1')).toMatchObject({ state: 'failed', result: failed('call-k1') });
    });

    it('get of an unknown key is undefined', async () => {
      expect(await journal.get('missing')).toBeUndefined();
    });

    it('begin of a finished key rejects with journal_conflict and keeps the finished entry', async () => {
      await journal.begin(call('k1'));
      await journal.finish('k1', ok('call-k1'));
      const error = await rejection(journal.begin({ ...call('k1'), callId: 'another-call' }));
      expect(error).toBeInstanceOf(JournalError);
      expect(error).toMatchObject({ code: 'journal_conflict', idempotencyKey: 'k1', state: 'succeeded' });
      expect(await journal.get('k1')).toMatchObject({ state: 'succeeded', callId: 'call-k1', result: ok('call-k1') });
    });

    it('begin of a started key rejects with journal_conflict, since the call may have run', async () => {
      await journal.begin(call('k1'));
      const error = await rejection(journal.begin(call('k1')));
      expect(error).toMatchObject({ code: 'journal_conflict', state: 'started' });
    });

    it('finish of a key never begun rejects with journal_missing and records nothing', async () => {
      const error = await rejection(journal.finish('k1', ok('call-k1')));
      expect(error).toBeInstanceOf(JournalError);
      expect(error).toMatchObject({ code: 'journal_missing', idempotencyKey: 'k1' });
      expect(await journal.get('k1')).toBeUndefined();
    });

    it('finish of a finished key rejects with journal_conflict and keeps the first outcome', async () => {
      await journal.begin(call('k1'));
      await journal.finish('k1', ok('call-k1'));
      const error = await rejection(journal.finish('k1', failed('call-k1')));
      expect(error).toMatchObject({ code: 'journal_conflict', state: 'succeeded' });
      expect(await journal.get('k1')).toMatchObject({ state: 'succeeded', result: ok('call-k1') });
    });

    it('note records what a started call leaves running, the latest note standing, and finish keeps it', async () => {
      await journal.begin(call('k1'));
      await journal.note!('k1', { kind: 'mcp_task', server: 'https://tasks.example/mcp', taskId: 't-1' });
      const question: CallHandle = { kind: 'mcp_input', server: 'https://tasks.example/mcp', requests: [], requestState: 's', round: 1 };
      await journal.note!('k1', question);
      expect(await journal.get('k1')).toMatchObject({ state: 'started', handle: question });
      await journal.finish('k1', ok('call-k1'));
      expect(await journal.get('k1')).toMatchObject({ state: 'succeeded', handle: question });
    });

    it('note of a key never begun rejects journal_missing; of a finished one, journal_conflict', async () => {
      const handle = { kind: 'mcp_task', server: 'https://tasks.example/mcp', taskId: 't-1' } as const;
      expect(await rejection(journal.note!('k1', handle))).toMatchObject({ code: 'journal_missing' });
      await journal.begin(call('k2'));
      await journal.finish('k2', ok('call-k2'));
      expect(await rejection(journal.note!('k2', handle))).toMatchObject({ code: 'journal_conflict', state: 'succeeded' });
      expect((await journal.get('k2'))?.handle).toBeUndefined();
    });

    it('begin with uncloneable arguments rejects with storage_uncloneable and records nothing', async () => {
      const error = await rejection(journal.begin({ ...call('k1'), arguments: { callback: uncloneable } }));
      expect(isAmbiError(error, 'storage_uncloneable')).toBe(true);
      expect(await journal.get('k1')).toBeUndefined();
    });

    it.each<[string, Record<string, unknown>]>([
      ['an idempotency key that is not a string', { idempotencyKey: 12 }],
      ['no idempotency key', { idempotencyKey: undefined }],
      ['no call id', { callId: undefined }],
      ['a conversation that is not a string', { conversation: { id: 'conv-1' } }],
    ])('begin with %s rejects with storage_invalid and records nothing', async (_what, fields) => {
      const error = await rejection(journal.begin({ ...call('k1', 'conv-1'), ...fields } as JournalBegin));
      expect(error).toBeInstanceOf(StorageError);
      expect(isAmbiError(error, 'storage_invalid')).toBe(true);
      expect(await journal.get('k1')).toBeUndefined();
      expect(await journal.listByConversation('conv-1')).toEqual([]);
    });

    it.each<[string, unknown]>([
      ['nothing', undefined],
      ['an object without ok', { id: 'call-k1', name: 'pay', output: 1 }],
      ['a failure without its error', { id: 'call-k1', name: 'pay', ok: false, attempts: 1, durationMs: 1 }],
      ['the result of another call', ok('another-call')],
    ])('finish given %s rejects with storage_invalid and keeps the entry started', async (_what, result) => {
      await journal.begin(call('k1'));
      const error = await rejection(journal.finish('k1', result as ToolResult));
      expect(error).toBeInstanceOf(StorageError);
      expect(isAmbiError(error, 'storage_invalid')).toBe(true);
      expect(await journal.get('k1')).toMatchObject({ state: 'started' });
    });

    it('listByConversation returns that conversation’s entries only, oldest first', async () => {
      await journal.begin(call('k1', 'conv-1'));
      await journal.begin(call('k2', 'conv-2'));
      await journal.begin(call('k3', 'conv-1'));
      await journal.begin(call('k4'));
      // k1 was begun first: an earlier or equal updatedAt, and equal times order by key.
      const keys = (await journal.listByConversation('conv-1')).map((entry) => entry.idempotencyKey);
      expect(keys).toEqual(['k1', 'k3']);
    });
  });
}

/**
 * Unique IndexedDB database names for the tests of one file, each closed and deleted
 * after its test (IndexedDB is shared by every test file of the origin).
 */
export function useFreshDatabases(): () => string {
  const databases = freshDatabases('test', deleteDB);
  afterEach(() => databases.deleteAll());
  return databases.fresh;
}
