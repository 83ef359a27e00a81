import { describeApprovalStore } from '../contract/approval-store.js';
import { useFreshDatabases } from '../contract/store-contracts.js';
import { IndexedDbConversationStore } from '../../src/store/indexeddb-conversation-store.js';

// Cleanup is useFreshDatabases' afterEach.
const freshName = useFreshDatabases();

describeApprovalStore('IndexedDB', async () => ({ store: (await IndexedDbConversationStore.open(freshName())).approvals, dispose: async () => {} }));
