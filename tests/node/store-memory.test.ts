import { describeSnapshotStore, describeToolCallJournal } from '../contract/store-contracts.js';
import { describeConversationStore } from '../contract/conversation-store.js';
import { describeConversationList } from '../contract/conversation-list.js';
import { MemoryConversationStore } from '../../src/store/memory-conversation-store.js';
import { MemorySnapshotStore } from '../../src/store/memory-snapshot-store.js';
import { MemoryToolCallJournal } from '../../src/store/memory-tool-call-journal.js';

const nothingToDispose = async () => {};

describeConversationStore('memory', async () => ({ store: new MemoryConversationStore(), dispose: nothingToDispose }));
describeConversationList('memory', async () => ({ store: new MemoryConversationStore(), dispose: nothingToDispose }));
describeSnapshotStore('memory', async () => ({ store: new MemorySnapshotStore(), dispose: nothingToDispose }));
describeToolCallJournal('memory', async () => ({ store: new MemoryToolCallJournal(), dispose: nothingToDispose }));
