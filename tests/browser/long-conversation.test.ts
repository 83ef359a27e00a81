// A long conversation in real IndexedDB, run through the runner worker with a context budget: the
// run reads the end of it (loadTail), returns that end to the page, and appends what it adds.
import { deleteDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerRunner, IndexedDbConversationStore, isAmbiError, scriptedEngine, type Message, type RunEvent } from '../../src/index.js';
import { openAmbiDatabase } from '../../src/store/database.js';
import { rejection } from '../contract/store-contracts.js';
import { freshDatabases } from '../support/fresh-databases.js';
import { openRunners } from '../support/worker-runners.js';

const runners = openRunners();
const databases = freshDatabases('long-conversation', deleteDB);
afterEach(async () => {
  runners.closeAll();
  await databases.deleteAll();
});

/** A system message, then `pairs` questions and answers of about 30 tokens each. */
function conversation(pairs: number): Message[] {
  const out: Message[] = [{ role: 'system', content: 'You keep notes.' }];
  for (let i = 0; i < pairs; i++) {
    out.push({ role: 'user', content: `question ${i}: ${'q'.repeat(100)}` }, { role: 'assistant', content: `answer ${i}: ${'a'.repeat(100)}` });
  }
  return out;
}

async function filled(messages: Message[]) {
  const database = databases.fresh();
  const store = await IndexedDbConversationStore.open(database);
  await store.append('c', messages);
  return { database, store };
}

describe('a long stored conversation through the WorkerRunner', () => {
  it('the run reads and returns the end that fits, skippedMessages says how much is left out, and the store gains only the run', async () => {
    const stored = conversation(2500);
    const { database, store } = await filled(stored);
    const runner = runners.keep(createWorkerRunner({ engine: scriptedEngine(['Noted.', 'Noted again.']), database, context: { maxTokens: 1000 } }));

    const run = runner.run('one more', { conversation: 'c' });
    const events: RunEvent[] = [];
    for await (const event of run.events) events.push(event);
    const result = await run.result;

    expect(result.text).toBe('Noted.');
    expect(result.messages[0]).toEqual(stored[0]);
    expect(result.messages.length).toBeLessThan(100);
    expect(result.messages.length + result.skippedMessages!).toBe(stored.length + 2);
    expect(result.messages.slice(-2)).toEqual([
      { role: 'user', content: 'one more' },
      { role: 'assistant', content: 'Noted.' },
    ]);
    const trimmed = events.find((e) => e.type === 'context_trimmed');
    expect(trimmed).toMatchObject({ type: 'context_trimmed' });
    if (trimmed?.type !== 'context_trimmed') throw new Error('no context_trimmed event');
    expect(trimmed.droppedMessages).toBeGreaterThan(4900);
    expect(trimmed.tokensAfter).toBeLessThanOrEqual(750);

    // A second run continues from the end the first one appended.
    const second = await runner.run('and another', { conversation: 'c' }).result;
    expect(second.messages.slice(-4).map((m) => m.content)).toEqual(['one more', 'Noted.', 'and another', 'Noted again.']);
    const all = await store.load('c');
    expect(all).toHaveLength(stored.length + 4);
    expect(all.slice(0, stored.length)).toEqual(stored);
  });

  it('a corrupt row in the end it reads fails the run with storage_corrupt and stores nothing', async () => {
    const stored = conversation(500);
    const { database, store } = await filled(stored);
    await (await openAmbiDatabase(database)).put('messages', { conversationId: 'c', seq: stored.length - 3 } as never);
    const runner = runners.keep(createWorkerRunner({ engine: scriptedEngine(['never asked']), database, context: { maxTokens: 1000 } }));

    const error = await rejection(runner.run('hello', { conversation: 'c' }).result);

    expect(isAmbiError(error, 'storage_corrupt')).toBe(true);
    expect((error as Error).message).toContain(`message ${stored.length - 3}`);
    expect(await (await openAmbiDatabase(database)).count('messages')).toBe(stored.length);
    await expect(store.load('c')).rejects.toMatchObject({ code: 'storage_corrupt' });
  });
});
