// Information: IndexedDB bytes per stored message (navigator.storage.estimate before and after
// 1,000 messages through IndexedDbConversationStore). Memory per idle runner and per in-flight run
// are not measured: performance.measureUserAgentSpecificMemory, the one API that counts a page's
// workers, brings this Chromium down once the page has a worker and its measurement is eager
// (`ForceEagerMeasureMemory`), and it takes about 20 s per reading otherwise.
import { closeAmbiDatabase, IndexedDbConversationStore } from '../../../src/index.js';
import { conversation } from '../../lib/conversation.js';
import { expose } from './expose.js';

export interface FootprintResult {
  /** Bytes on disk per stored message. */
  storedMessage: number;
}

const MESSAGES = 1000;

expose<Record<string, never>, FootprintResult>({
  async run() {
    const database = 'ambi-bench-footprint';
    await new Promise((resolve) => Object.assign(indexedDB.deleteDatabase(database), { onsuccess: resolve, onerror: resolve, onblocked: resolve }));
    const store = await IndexedDbConversationStore.open(database);
    await store.append('warm', conversation(10));
    const empty = (await navigator.storage.estimate()).usage ?? 0;
    await store.append('c', conversation(MESSAGES));
    await closeAmbiDatabase(database);
    const full = (await navigator.storage.estimate()).usage ?? 0;
    return { storedMessage: (full - empty) / MESSAGES };
  },
});
