import { checkSnapshot, checkSnapshotId } from './snapshot-rules.js';
import { toStorageError } from './storage-failure.js';
import type { LeafSnapshot, SnapshotStore } from './types.js';
import { byCreation } from './by-creation.js';

/** Leaf snapshots in memory, for tests and Node; copies in and out like IndexedDB does. */
export class MemorySnapshotStore implements SnapshotStore {
  readonly #snapshots = new Map<string, LeafSnapshot>();

  /** Write a copy of a snapshot; a value IndexedDB could not store is refused here too (`storage_invalid`, `storage_uncloneable`). */
  async put(snapshot: LeafSnapshot): Promise<void> {
    checkSnapshot(snapshot, 'store a snapshot');
    let copy: LeafSnapshot;
    try {
      copy = structuredClone(snapshot);
    } catch (error) {
      throw toStorageError(error, `store snapshot "${snapshot.id}"`);
    }
    this.#snapshots.set(copy.id, copy);
  }

  /** A copy of the snapshot with this id, if any. */
  async get(id: string): Promise<LeafSnapshot | undefined> {
    checkSnapshotId(id, 'read a snapshot');
    const snapshot = this.#snapshots.get(id);
    return snapshot && structuredClone(snapshot);
  }

  /** Copies of every snapshot, oldest `createdAt` first (ties by id, as IndexedDB's index orders them). */
  async list(): Promise<LeafSnapshot[]> {
    return [...this.#snapshots.values()].sort(byCreation).map((snapshot) => structuredClone(snapshot));
  }

  /** Remove a snapshot; removing one that does not exist is not an error. */
  async delete(id: string): Promise<void> {
    checkSnapshotId(id, 'delete a snapshot');
    this.#snapshots.delete(id);
  }
}
