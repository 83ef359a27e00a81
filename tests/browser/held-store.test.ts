import { describe, expect, it } from 'vitest';
import { describeHeldStore } from '../contract/held-store.js';
import { useFreshDatabases } from '../contract/store-contracts.js';
import { IndexedDbConversationStore } from '../../src/store/indexeddb-conversation-store.js';

// Cleanup is useFreshDatabases' afterEach.
const freshName = useFreshDatabases();

describeHeldStore('IndexedDB', async () => ({ store: (await IndexedDbConversationStore.open(freshName())).held, dispose: async () => {} }));

describe('held values of an IndexedDB conversation', () => {
  it('go with the conversation when it is deleted, and its ids start again from $1', async () => {
    const store = await IndexedDbConversationStore.open(freshName());
    await store.append('c', [{ role: 'user', content: 'hi' }]);
    await store.held.hold('c', { from: 'read_page', callId: 'r1', value: 'page' });
    await store.held.hold('other', { from: 'read_page', callId: 'r1', value: 'kept' });
    await store.delete('c');
    expect(await store.held.list('c')).toEqual([]);
    expect(await store.held.get('c', '$1')).toBeUndefined();
    expect((await store.held.get('other', '$1'))?.value).toBe('kept');
    expect((await store.held.hold('c', { from: 'read_page', callId: 'r2', value: 'new' })).id).toBe('$1');
  });
});
