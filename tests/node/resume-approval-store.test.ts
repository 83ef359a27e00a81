import { describeApprovalStore } from '../contract/approval-store.js';
import { MemoryApprovalStore } from '../../src/store/memory-approval-store.js';

describeApprovalStore('memory', async () => ({ store: new MemoryApprovalStore(), dispose: async () => {} }));
