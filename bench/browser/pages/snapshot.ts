// snapshot-io: save then load a 1,000-message conversation through IndexedDbConversationStore,
// against raw idb (the library our store uses) doing the same: one readwrite transaction
// of puts, then one getAll over the conversation's key range.
import { openDB, type IDBPDatabase } from 'idb';
import { closeAmbiDatabase, IndexedDbConversationStore, type Message } from '../../../src/index.js';
import { conversation } from '../../lib/conversation.js';
import { expose } from './expose.js';

export interface SnapshotOptions {
  messages: number;
  rounds: number;
  warmup: number;
}

export interface SnapshotRound {
  ours: { save: number; load: number };
  raw: { save: number; load: number };
}

type RawDb = IDBPDatabase<{ messages: { key: [string, number]; value: { conversationId: string; seq: number; message: Message } } }>;

const range = (id: string) => IDBKeyRange.bound([id, 0], [id, Infinity]);

async function timed<T>(body: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const value = await body();
  return [performance.now() - start, value];
}

expose<SnapshotOptions, SnapshotRound[]>({
  async run(options) {
    const messages = conversation(options.messages);
    for (const name of ['ambi-bench', 'raw-bench']) {
      await new Promise((resolve) => Object.assign(indexedDB.deleteDatabase(name), { onsuccess: resolve, onerror: resolve, onblocked: resolve }));
    }
    const store = await IndexedDbConversationStore.open('ambi-bench');
    const raw: RawDb = await openDB('raw-bench', 1, {
      upgrade: (db) => void db.createObjectStore('messages', { keyPath: ['conversationId', 'seq'] }),
    });

    const ours = async (id: string) => {
      const [save] = await timed(() => store.append(id, messages));
      const [load, loaded] = await timed(() => store.load(id));
      if (loaded.length !== messages.length) throw new Error(`ours loaded ${loaded.length} messages`);
      await store.delete(id);
      return { save, load };
    };
    const rawIo = async (id: string) => {
      const [save] = await timed(async () => {
        const tx = raw.transaction('messages', 'readwrite');
        messages.forEach((message, seq) => void tx.store.put({ conversationId: id, seq, message }));
        await tx.done;
      });
      const [load, loaded] = await timed(async () => (await raw.getAll('messages', range(id))).map((row) => row.message));
      if (loaded.length !== messages.length) throw new Error(`raw loaded ${loaded.length} messages`);
      await raw.delete('messages', range(id));
      return { save, load };
    };

    const rounds: SnapshotRound[] = [];
    for (let i = 0; i < options.warmup + options.rounds; i++) {
      const id = `conversation-${i}`;
      const round = i % 2 ? { raw: await rawIo(id), ours: await ours(id) } : { ours: await ours(id), raw: await rawIo(id) };
      if (i >= options.warmup) rounds.push(round);
    }
    raw.close();
    await closeAmbiDatabase('ambi-bench');
    return rounds;
  },
});
