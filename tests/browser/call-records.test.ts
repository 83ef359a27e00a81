import { describeCallRecords } from '../contract/call-records.js';
import { useFreshDatabases } from '../contract/store-contracts.js';
import { IndexedDbConversationStore } from '../../src/store/indexeddb-conversation-store.js';

// Cleanup is useFreshDatabases' afterEach.
const freshName = useFreshDatabases();

describeCallRecords('IndexedDB', async () => ({ store: (await IndexedDbConversationStore.open(freshName())).journal, dispose: async () => {} }));
