// A corrupted conversation and a database deleted mid-run, through the runner worker (issue 13, items 18 and 25).
import { deleteDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerRunner, defineTool, IndexedDbConversationStore, isAmbiError, scriptedEngine, type RunEvent, type WorkerRunner } from '../../src/index.js';
import { freshDatabases } from '../support/fresh-databases.js';
import { openRunners } from '../support/worker-runners.js';
import { openAmbiDatabase } from '../../src/store/database.js';
import { rejection } from '../contract/store-contracts.js';

const runners = openRunners();
// Deleted with idb's deleteDB, which waits out a blocked deletion.
const databases = freshDatabases('hostile-worker', deleteDB);
afterEach(async () => {
  // The runner worker's connection ends with the worker; the page's own is closed before the deletion.
  runners.closeAll();
  await databases.deleteAll();
});
const freshDatabase = databases.fresh;

/** Every event of a run, then its rejection (it must reject). */
async function failedRun(run: ReturnType<WorkerRunner['run']>): Promise<{ events: RunEvent[]; error: unknown }> {
  const events: RunEvent[] = [];
  for await (const event of run.events) events.push(event);
  return { events, error: await rejection(run.result) };
}

describe('the runner worker and a hostile store', () => {
  it('a run on a conversation with a row missing its message fails with storage_corrupt, and the conversation is left as it was', async () => {
    const database = freshDatabase();
    const page = await IndexedDbConversationStore.open(database);
    await page.append('c1', [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
    await (await openAmbiDatabase(database)).put('messages', { conversationId: 'c1', seq: 1 } as never);
    const runner = createWorkerRunner({ engine: scriptedEngine(['never asked']), database });
    runners.keep(runner);

    const { events, error } = await failedRun(runner.run('again', { conversation: 'c1' }));

    expect(isAmbiError(error, 'storage_corrupt')).toBe(true);
    expect((error as Error).message).toContain('truncate("c1", 1)');
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'storage_corrupt' } });
    expect(await (await openAmbiDatabase(database)).count('messages')).toBe(2);
  });

  it('deleting the database while a page tool runs fails the run with storage_closed, and leaves no conversation that starts with a tool message', async () => {
    const database = freshDatabase();
    const wipe = defineTool({
      name: 'wipe',
      description: 'Clear the site data',
      parameters: { type: 'object' },
      idempotent: true,
      call: async () => {
        await deleteDB(database);
        return 'wiped';
      },
    });
    const runner = createWorkerRunner({
      engine: scriptedEngine([{ toolCalls: [{ id: 't1', name: 'wipe', arguments: {} }] }, 'All clear.']),
      database,
    }).tool(wipe);
    runners.keep(runner);

    const { events, error } = await failedRun(runner.run('clear everything', { conversation: 'c1' }));

    expect(isAmbiError(error, 'storage_closed')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'storage_closed' } });
    const after = await IndexedDbConversationStore.open(database);
    expect(await after.list()).toEqual([]);
    expect(await after.load('c1')).toEqual([]);
  });
});
