import { MemorySnapshotStore, type LeafSnapshot } from '../../src/index.js';
import { describeLeaf } from '../contract/leaf.js';

/** A memory store that refuses writes as a full disk would (a plain Error: the leaf codes it storage_error). */
class FullStore extends MemorySnapshotStore {
  override async put(_snapshot: LeafSnapshot): Promise<void> {
    throw new Error('disk full');
  }
}

describeLeaf('node', {
  fresh: async () => new MemorySnapshotStore(),
  refusing: async () => ({ store: new FullStore(), code: 'storage_error' }),
});
