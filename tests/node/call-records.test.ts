import { describeCallRecords } from '../contract/call-records.js';
import { MemoryToolCallJournal } from '../../src/store/memory-tool-call-journal.js';

describeCallRecords('memory', async () => ({ store: new MemoryToolCallJournal(), dispose: async () => {} }));
