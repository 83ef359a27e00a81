import { openDB, type IDBPDatabase } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import { StorageError } from '../../src/errors/storage-error.js';
import { closeAmbiDatabase, openAmbiDatabase } from '../../src/store/database.js';
import { IndexedDbConversationStore } from '../../src/store/indexeddb-conversation-store.js';
import { IndexedDbSnapshotStore } from '../../src/store/indexeddb-snapshot-store.js';
import { IndexedDbToolCallJournal } from '../../src/store/indexeddb-tool-call-journal.js';
import { SCHEMA_VERSION, upgradeSchema, type AmbiDbSchema } from '../../src/store/schema.js';
import { rejection, snapshot, useFreshDatabases } from '../contract/store-contracts.js';

const freshName = useFreshDatabases();

// Connections a test opened by hand; closed before useFreshDatabases deletes the databases.
const handOpened: IDBPDatabase<any>[] = [];
afterEach(() => {
  for (const db of handOpened.splice(0)) db.close();
});

/** Open a database by hand, as an older version of ambi-web (or another app) would. */
async function openByHand(name: string, version: number, upgrade?: (db: IDBPDatabase<any>) => void) {
  const db = await openDB(name, version, upgrade ? { upgrade } : {});
  handOpened.push(db);
  return db;
}

describe('the ambi-web database', () => {
  it('a new database gets every store and index at the current schema version', async () => {
    const db = await openAmbiDatabase(freshName());
    expect(db.version).toBe(SCHEMA_VERSION);
    expect([...db.objectStoreNames].sort()).toEqual([
      'conversations',
      'heldInfo',
      'heldValues',
      'journal',
      'mcpAuth',
      'mcpLogins',
      'messages',
      'snapshots',
      'standing',
    ]);
    const tx = db.transaction(['snapshots', 'journal', 'messages']);
    expect([...tx.objectStore('snapshots').indexNames]).toEqual(['createdAt']);
    expect([...tx.objectStore('journal').indexNames]).toEqual(['conversation']);
    expect(tx.objectStore('messages').keyPath).toEqual(['conversationId', 'seq']);
  });

  it('stores opened on one name share one connection', async () => {
    const name = freshName();
    await IndexedDbSnapshotStore.open(name);
    await IndexedDbConversationStore.open(name);
    await IndexedDbToolCallJournal.open(name);
    expect(await openAmbiDatabase(name)).toBe(await openAmbiDatabase(name));
  });

  it('closing the database makes the next open a new connection', async () => {
    const name = freshName();
    const first = await openAmbiDatabase(name);
    await closeAmbiDatabase(name);
    expect(await openAmbiDatabase(name)).not.toBe(first);
  });

  it('opening a version 1 database (snapshots only) adds the later stores and keeps its snapshots', async () => {
    const name = freshName();
    // Version 1 written by hand, as the first release's schema stood.
    const v1 = await openByHand(name, 1, (db) => {
      db.createObjectStore('snapshots', { keyPath: 'id' }).createIndex('createdAt', 'createdAt');
    });
    await v1.put('snapshots', snapshot('old', 500));
    v1.close();

    const snapshots = await IndexedDbSnapshotStore.open(name);
    const conversations = await IndexedDbConversationStore.open(name);
    const journal = await IndexedDbToolCallJournal.open(name);

    expect(await snapshots.list()).toEqual([snapshot('old', 500)]);
    await conversations.append('c1', [{ role: 'user', content: 'hi' }]);
    await journal.begin({ idempotencyKey: 'k1', callId: 'c1', name: 'pay', arguments: {} });
    expect(await conversations.load('c1')).toEqual([{ role: 'user', content: 'hi' }]);
    expect(await journal.get('k1')).toMatchObject({ state: 'started' });
    expect((await openAmbiDatabase(name)).version).toBe(SCHEMA_VERSION);
  });

  it('opening a version 2 database adds the journal and keeps its conversations', async () => {
    const name = freshName();
    const v2 = await openDB<AmbiDbSchema>(name, 2, { upgrade: (db, oldVersion) => upgradeSchema(db, oldVersion, 2) });
    expect([...v2.objectStoreNames]).not.toContain('journal');
    await v2.put('conversations', { id: 'c1', length: 1, createdAt: 1, updatedAt: 1 });
    await v2.put('messages', { conversationId: 'c1', seq: 0, message: { role: 'user', content: 'from v2' } });
    v2.close();

    const conversations = await IndexedDbConversationStore.open(name);
    const journal = await IndexedDbToolCallJournal.open(name);
    expect(await conversations.load('c1')).toEqual([{ role: 'user', content: 'from v2' }]);
    await journal.begin({ idempotencyKey: 'k1', callId: 'c1', name: 'pay', arguments: {}, conversation: 'c1' });
    expect(await journal.listByConversation('c1')).toHaveLength(1);
  });

  it('opening a version 5 database adds the held values and keeps its conversations: their ids start at $1', async () => {
    const name = freshName();
    const v5 = await openDB<AmbiDbSchema>(name, 5, { upgrade: (db, oldVersion) => upgradeSchema(db, oldVersion, 5) });
    expect([...v5.objectStoreNames]).not.toContain('heldInfo');
    await v5.put('conversations', { id: 'c1', length: 1, createdAt: 1, updatedAt: 1 });
    await v5.put('messages', { conversationId: 'c1', seq: 0, message: { role: 'user', content: 'from v5' } });
    v5.close();

    const conversations = await IndexedDbConversationStore.open(name);
    expect(await conversations.load('c1')).toEqual([{ role: 'user', content: 'from v5' }]);
    expect((await conversations.held.hold('c1', { from: 'read_page', callId: 'r1', value: 'page' })).id).toBe('$1');
  });

  it('an upgrade blocked by an old connection that never closes rejects with storage_blocked', async () => {
    const name = freshName();
    // No versionchange handler: this connection ignores the upgrade request, as old code would.
    await openByHand(name, 1, (db) => db.createObjectStore('snapshots', { keyPath: 'id' }));

    const error = await rejection(IndexedDbSnapshotStore.open(name, { blockedTimeoutMs: 50 }));

    expect(error).toBeInstanceOf(StorageError);
    expect(isAmbiError(error, 'storage_blocked')).toBe(true);
    expect((error as Error).message).toContain('another tab');
  });

  it('once the blocking connection closes, opening again succeeds and keeps the data', async () => {
    const name = freshName();
    const old = await openByHand(name, 1, (db) => {
      db.createObjectStore('snapshots', { keyPath: 'id' }).createIndex('createdAt', 'createdAt');
    });
    await old.put('snapshots', snapshot('old'));
    await rejection(IndexedDbSnapshotStore.open(name, { blockedTimeoutMs: 0 }));
    old.close();

    const store = await IndexedDbSnapshotStore.open(name);
    expect(await store.get('old')).toEqual(snapshot('old'));
  });

  it('our open connection steps aside when another tab opens a newer version', async () => {
    const name = freshName();
    await IndexedDbSnapshotStore.open(name);
    // Resolves only if our connection closed on versionchange; a blocked open would hang.
    const newer = await openByHand(name, SCHEMA_VERSION + 1);
    expect(newer.version).toBe(SCHEMA_VERSION + 1);
  });

  it('after a newer version took over, store operations reject with storage_version', async () => {
    const name = freshName();
    const store = await IndexedDbSnapshotStore.open(name);
    (await openByHand(name, SCHEMA_VERSION + 1)).close();
    const error = await rejection(store.list());
    expect(error).toBeInstanceOf(StorageError);
    expect(isAmbiError(error, 'storage_version')).toBe(true);
  });

  it('a transaction on a connection closed underneath it rejects with storage_closed', async () => {
    const name = freshName();
    const store = await IndexedDbSnapshotStore.open(name);
    // Close the shared connection behind the cache's back, as the browser does when it drops one.
    (await openAmbiDatabase(name)).close();
    const error = await rejection(store.list());
    expect(isAmbiError(error, 'storage_closed')).toBe(true);
  });
});

describe('a failing upgrade', () => {
  it('rejects with a coded error carrying the failed step’s own error, and leaves the old version', async () => {
    const name = freshName();
    // A store named like a later step's, so that step's createObjectStore fails.
    const v1 = await openByHand(name, 1, (db) => {
      db.createObjectStore('snapshots', { keyPath: 'id' }).createIndex('createdAt', 'createdAt');
      db.createObjectStore('journal');
    });
    v1.close();

    const error = await rejection(openAmbiDatabase(name));

    expect(isAmbiError(error, 'storage_error')).toBe(true);
    expect((error as Error).cause).toMatchObject({ name: 'ConstraintError' });
    const after = await openByHand(name, 1);
    expect(after.version).toBe(1);
  });
});
