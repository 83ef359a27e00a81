import { openAmbiDatabase, DEFAULT_DATABASE_NAME, type OpenDatabaseOptions } from './database.js';
import { DatabaseStore } from './database-store.js';
import { checkSnapshot, checkSnapshotId, readSnapshot } from './snapshot-rules.js';
import { storageOperation } from './storage-failure.js';
import { queue, transact } from './transaction.js';
import type { LeafSnapshot, SnapshotStore } from './types.js';

/** Leaf snapshots in IndexedDB: they survive reloads, and every failure rejects with a coded StorageError. */
export class IndexedDbSnapshotStore extends DatabaseStore implements SnapshotStore {
  /** Open the store on a database (default `'ambi-web'`); rejects if the database cannot be opened. */
  static async open(dbName = DEFAULT_DATABASE_NAME, options: OpenDatabaseOptions = {}): Promise<IndexedDbSnapshotStore> {
    await openAmbiDatabase(dbName, options);
    return new IndexedDbSnapshotStore(dbName, options);
  }

  /** Write a snapshot, replacing any with the same id; refuses (`storage_invalid`) one without a string id or a numeric createdAt. */
  async put(snapshot: LeafSnapshot): Promise<void> {
    checkSnapshot(snapshot, 'store a snapshot');
    return storageOperation(`store snapshot "${snapshot.id}"`, async () => {
      const db = await this.db();
      await transact(db, ['snapshots'], 'readwrite', async (tx) => queue(tx.objectStore('snapshots').put(snapshot)));
    });
  }

  /** The snapshot with this id, if any; rejects `storage_corrupt` if what is stored is not a snapshot. */
  async get(id: string): Promise<LeafSnapshot | undefined> {
    checkSnapshotId(id, 'read a snapshot');
    const action = `read snapshot "${id}"`;
    return storageOperation(action, async () => {
      const db = await this.db();
      const stored = await transact(db, ['snapshots'], 'readonly', (tx) => tx.objectStore('snapshots').get(id));
      return stored === undefined ? undefined : readSnapshot(stored, action);
    });
  }

  /** Every snapshot, oldest `createdAt` first (ties by id). */
  async list(): Promise<LeafSnapshot[]> {
    return storageOperation('list snapshots', async () => {
      const db = await this.db();
      const stored = await transact(db, ['snapshots'], 'readonly', (tx) => tx.objectStore('snapshots').index('createdAt').getAll());
      return stored.map((snapshot) => readSnapshot(snapshot, 'list snapshots'));
    });
  }

  /** Remove a snapshot; removing one that does not exist is not an error. */
  async delete(id: string): Promise<void> {
    checkSnapshotId(id, 'delete a snapshot');
    return storageOperation(`delete snapshot "${id}"`, async () => {
      const db = await this.db();
      await transact(db, ['snapshots'], 'readwrite', async (tx) => queue(tx.objectStore('snapshots').delete(id)));
    });
  }
}
