import { describe, expect, it } from 'vitest';
import { closeAmbiDatabase } from '../../src/store/database.js';
import { IndexedDbToolCallJournal } from '../../src/store/indexeddb-tool-call-journal.js';
import { useFreshDatabases } from '../contract/store-contracts.js';

const freshName = useFreshDatabases();

describe('IndexedDbToolCallJournal', () => {
  it('a started entry survives closing and reopening the database, so the call is not run again', async () => {
    const name = freshName();
    const before = await IndexedDbToolCallJournal.open(name);
    await before.begin({ idempotencyKey: 'k1', callId: 'c1', name: 'pay', arguments: { amount: 10 }, conversation: 'conv' });
    await closeAmbiDatabase(name);

    const after = await IndexedDbToolCallJournal.open(name);
    expect(await after.get('k1')).toMatchObject({ state: 'started', name: 'pay', arguments: { amount: 10 } });
    await expect(after.begin({ idempotencyKey: 'k1', callId: 'c2', name: 'pay', arguments: {} })).rejects.toMatchObject({
      code: 'journal_conflict',
    });
  });
});
