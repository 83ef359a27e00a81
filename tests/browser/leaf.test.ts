import { openDB } from 'idb';
import { IndexedDbSnapshotStore } from '../../src/index.js';
import { SCHEMA_VERSION } from '../../src/store/schema.js';
import { describeLeaf } from '../contract/leaf.js';

const fresh = () => IndexedDbSnapshotStore.open(`leaf-${crypto.randomUUID()}`);

describeLeaf('chromium, IndexedDB', {
  fresh,
  // Another tab upgrades the database: our connection closes itself, and IndexedDB refuses our writes.
  refusing: async () => {
    const name = `leaf-refused-${crypto.randomUUID()}`;
    const store = await IndexedDbSnapshotStore.open(name);
    const newer = await openDB(name, SCHEMA_VERSION + 1);
    newer.close();
    return { store, code: 'storage_version' };
  },
});
