import { describeSnapshotStore, describeToolCallJournal, useFreshDatabases } from '../contract/store-contracts.js';
import { describeConversationStore } from '../contract/conversation-store.js';
import { describeConversationList } from '../contract/conversation-list.js';
import { IndexedDbConversationStore } from '../../src/store/indexeddb-conversation-store.js';
import { IndexedDbSnapshotStore } from '../../src/store/indexeddb-snapshot-store.js';
import { IndexedDbToolCallJournal } from '../../src/store/indexeddb-tool-call-journal.js';

// Cleanup is useFreshDatabases' afterEach; the fixtures have nothing more to dispose.
const freshName = useFreshDatabases();
const nothingToDispose = async () => {};

describeConversationStore('IndexedDB', async () => ({
  store: await IndexedDbConversationStore.open(freshName()),
  dispose: nothingToDispose,
}));

describeConversationList('IndexedDB', async () => ({
  store: await IndexedDbConversationStore.open(freshName()),
  dispose: nothingToDispose,
}));

describeSnapshotStore('IndexedDB', async () => ({
  store: await IndexedDbSnapshotStore.open(freshName()),
  dispose: nothingToDispose,
}));

describeToolCallJournal('IndexedDB', async () => ({
  store: await IndexedDbToolCallJournal.open(freshName()),
  dispose: nothingToDispose,
}));
