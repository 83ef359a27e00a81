// long-conversation: the loop's cost per run (scripted engine, the IndexedDB store in the runner
// worker, a context budget set) on a stored conversation of 10,000 messages, against one of 10,
// same runner. A run that read only what it sends and appended what it adds would cost about
// the same on both.
import { closeAmbiDatabase, createWorkerRunner, IndexedDbConversationStore, scriptedEngine } from '../../../src/index.js';
import { conversation } from '../../lib/conversation.js';
import { expose } from './expose.js';

export interface LongConversationOptions {
  long: number;
  short: number;
  rounds: number;
  warmup: number;
}

export interface LongConversationRound {
  longMs: number;
  shortMs: number;
}

const DATABASE = 'ambi-bench-long-conversation';

expose<LongConversationOptions, LongConversationRound[]>({
  async run(options) {
    await new Promise((resolve) => Object.assign(indexedDB.deleteDatabase(DATABASE), { onsuccess: resolve, onerror: resolve, onblocked: resolve }));
    // Filled from the page: the worker opens the same database.
    const store = await IndexedDbConversationStore.open(DATABASE);
    await store.append('long', conversation(options.long));
    await store.append('short', conversation(options.short));
    await closeAmbiDatabase(DATABASE);
    const runs = options.warmup + options.rounds;
    const runner = createWorkerRunner({
      engine: scriptedEngine(Array.from({ length: 2 * runs }, () => 'Noted.')),
      database: DATABASE,
      context: { maxTokens: 4000 },
    });
    const timed = async (id: string) => {
      const start = performance.now();
      await runner.run('One more thing to note.', { conversation: id }).result;
      return performance.now() - start;
    };
    const rounds: LongConversationRound[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternating order, so drift hits both alike (an object literal is evaluated in written order).
      const round =
        i % 2 === 0 ? { longMs: await timed('long'), shortMs: await timed('short') } : { shortMs: await timed('short'), longMs: await timed('long') };
      if (i >= options.warmup) rounds.push(round);
    }
    runner.close();
    return rounds;
  },
});
