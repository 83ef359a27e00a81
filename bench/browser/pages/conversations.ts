// conversations-list-1000: IndexedDbConversationStore.list() over 1,000 stored conversations of 20
// messages each, against idb's getAll of the same database's `conversations` store (the records
// list() reads). Information: what counting every conversation's messages, in one transaction as
// list() once did, costs on the same database.
import { openDB } from 'idb';
import { closeAmbiDatabase, IndexedDbConversationStore } from '../../../src/index.js';
import { conversation } from '../../lib/conversation.js';
import { expose } from './expose.js';

export interface ListOptions {
  conversations: number;
  messages: number;
  rounds: number;
  warmup: number;
}

export interface ListRound {
  ours: number;
  raw: number;
  counted: number;
}

const DB = 'ambi-bench-list';

async function timed(body: () => Promise<number>, expected: number): Promise<number> {
  const start = performance.now();
  const listed = await body();
  const ms = performance.now() - start;
  if (listed !== expected) throw new Error(`listed ${listed} conversations, not ${expected}`);
  return ms;
}

expose<ListOptions, ListRound[]>({
  async run({ conversations, messages, rounds, warmup }) {
    await new Promise((resolve) => Object.assign(indexedDB.deleteDatabase(DB), { onsuccess: resolve, onerror: resolve, onblocked: resolve }));
    const store = await IndexedDbConversationStore.open(DB);
    const history = conversation(messages);
    for (let i = 0; i < conversations; i++) await store.append(`conversation-${i}`, history);
    // The same database through idb, at the version the store opened it.
    const raw = await openDB(DB);
    const sides = {
      ours: async () => (await store.list()).length,
      raw: async () => (await raw.getAll('conversations')).length,
      counted: async () => {
        const tx = raw.transaction(['conversations', 'messages']);
        const all = await tx.objectStore('conversations').getAll();
        const ids = all.map((record) => (record as { id: string }).id);
        const counts = await Promise.all(ids.map((id) => tx.objectStore('messages').count(IDBKeyRange.bound([id, 0], [id, Infinity]))));
        if (counts.some((count) => count !== messages)) throw new Error('a conversation lost messages');
        return counts.length;
      },
    };
    const names = Object.keys(sides) as Array<keyof typeof sides>;
    const out: ListRound[] = [];
    for (let i = 0; i < warmup + rounds; i++) {
      const round = { ours: 0, raw: 0, counted: 0 };
      for (const name of i % 2 ? [...names].reverse() : names) round[name] = await timed(sides[name], conversations);
      if (i >= warmup) out.push(round);
    }
    raw.close();
    await closeAmbiDatabase(DB);
    return out;
  },
});
