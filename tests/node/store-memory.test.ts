import { describeSnapshotStore, describeToolCallJournal } from '../contract/store-contracts.js';
import { MemorySnapshotStore } from '../../src/store/memory-snapshot-store.js';
import { MemoryToolCallJournal } from '../../src/store/memory-tool-call-journal.js';

const nothingToDispose = async () => {};

describeSnapshotStore('memory', async () => ({ store: new MemorySnapshotStore(), dispose: nothingToDispose }));
describeToolCallJournal('memory', async () => ({ store: new MemoryToolCallJournal(), dispose: nothingToDispose }));
