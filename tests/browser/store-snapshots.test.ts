import { afterEach, describe, expect, it, vi } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import { closeAmbiDatabase } from '../../src/store/database.js';
import { IndexedDbSnapshotStore } from '../../src/store/indexeddb-snapshot-store.js';
import { rejection, snapshot, useFreshDatabases } from '../contract/store-contracts.js';

const freshName = useFreshDatabases();
afterEach(() => vi.restoreAllMocks());

describe('IndexedDbSnapshotStore', () => {
  it('snapshots survive closing and reopening the database', async () => {
    const name = freshName();
    const before = await IndexedDbSnapshotStore.open(name);
    await before.put(snapshot('a', 1000));
    await before.put(snapshot('b', 2000, { status: 'done', result: 'ok' }));
    await closeAmbiDatabase(name);

    const after = await IndexedDbSnapshotStore.open(name);
    expect(await after.list()).toEqual([snapshot('a', 1000), snapshot('b', 2000, { status: 'done', result: 'ok' })]);
  });

  it('a store keeps working after its database connection was closed', async () => {
    const name = freshName();
    const store = await IndexedDbSnapshotStore.open(name);
    await store.put(snapshot('a'));
    await closeAmbiDatabase(name);
    expect(await store.get('a')).toEqual(snapshot('a'));
  });

  it('two databases do not share snapshots', async () => {
    const one = await IndexedDbSnapshotStore.open(freshName());
    const two = await IndexedDbSnapshotStore.open(freshName());
    await one.put(snapshot('a'));
    expect(await two.get('a')).toBeUndefined();
  });

  it('a full quota rejects put with storage_quota and stores nothing', async () => {
    const store = await IndexedDbSnapshotStore.open(freshName());
    // Chromium's quota cannot be filled in a test; the browser's own error is what IDB would raise.
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    });
    const error = await rejection(store.put(snapshot('a')));
    vi.restoreAllMocks();
    expect(isAmbiError(error, 'storage_quota')).toBe(true);
    expect((error as Error).cause).toMatchObject({ name: 'QuotaExceededError' });
    expect(await store.get('a')).toBeUndefined();
  });
});
