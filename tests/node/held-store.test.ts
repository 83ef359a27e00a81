import { describeHeldStore } from '../contract/held-store.js';
import { MemoryHeldStore } from '../../src/store/memory-held-store.js';

describeHeldStore('memory', async () => ({ store: new MemoryHeldStore(), dispose: async () => {} }));
