import { describe, expect, it, vi } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import { StorageError } from '../../src/errors/storage-error.js';
import type { Message } from '../../src/core/types.js';
import { closeAmbiDatabase } from '../../src/store/database.js';
import { IndexedDbConversationStore } from '../../src/store/indexeddb-conversation-store.js';
import { rejection, uncloneable, useFreshDatabases } from '../contract/store-contracts.js';

const freshName = useFreshDatabases();
const open = () => IndexedDbConversationStore.open(freshName());

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });

// What every conversation store does is specified once, in tests/contract/conversation-store.ts;
// these are IndexedDB's own: metadata, deletion, persistence, and failures only a browser raises.
describe('IndexedDbConversationStore', () => {
  it('an append with an uncloneable message rejects with storage_uncloneable and leaves the conversation as it was', async () => {
    const store = await open();
    await store.append('c1', [user('kept')]);
    const batch = [user('first of batch'), { ...assistant('bad'), provider: { callback: uncloneable } }, user('last')];

    const error = await rejection(store.append('c1', batch));

    expect(error).toBeInstanceOf(StorageError);
    expect(isAmbiError(error, 'storage_uncloneable')).toBe(true);
    expect(await store.load('c1')).toEqual([user('kept')]);
    expect((await store.list()).find((c) => c.id === 'c1')?.length).toBe(1);
  });

  it('a conversation that fails its first append is not created', async () => {
    const store = await open();
    await rejection(store.append('c1', [user('fine'), { ...user('bad'), origin: uncloneable } as unknown as Message]));
    expect(await store.load('c1')).toEqual([]);
    expect(await store.list()).toEqual([]);
  });

  it('a write the browser fails mid-batch leaves no partial messages', async () => {
    const store = await open();
    await store.append('c1', [user('kept')]);
    const put = IDBObjectStore.prototype.put;
    let calls = 0;
    // The third write of the batch fails as a full disk would; the first two were already queued.
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args) {
      if (++calls === 3) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.apply(this, args);
    });
    const error = await rejection(store.append('c1', [user('a'), user('b'), user('c')]));
    vi.restoreAllMocks();
    expect(isAmbiError(error, 'storage_quota')).toBe(true);
    expect(await store.load('c1')).toEqual([user('kept')]);
  });

  it('truncate to a length beyond the conversation changes nothing', async () => {
    const store = await open();
    await store.append('c1', [user('1')]);
    const [before] = await store.list();
    await store.truncate('c1', 5);
    expect(await store.load('c1')).toEqual([user('1')]);
    expect(await store.list()).toEqual([before]);
  });

  it('truncate of an unknown conversation resolves and creates nothing', async () => {
    const store = await open();
    await store.truncate('missing', 0);
    expect(await store.list()).toEqual([]);
  });

  it('a 1,000-message conversation round-trips in order', async () => {
    const store = await open();
    const messages = Array.from({ length: 1000 }, (_, i) => (i % 2 ? assistant(`reply ${i}`) : user(`question ${i}`)));
    await store.append('long', messages.slice(0, 600));
    await store.append('long', messages.slice(600));
    expect(await store.load('long')).toEqual(messages);
  });

  it('list gives each conversation’s id and length, oldest first', async () => {
    const store = await open();
    await store.append('first', [user('1'), assistant('2')]);
    await store.append('second', [user('1')]);
    const list = await store.list();
    expect(list.map(({ id, length }) => ({ id, length }))).toEqual([
      { id: 'first', length: 2 },
      { id: 'second', length: 1 },
    ]);
    expect(list[0]!.updatedAt).toBeGreaterThanOrEqual(list[0]!.createdAt);
  });

  it('delete removes a conversation’s messages and metadata and keeps the others', async () => {
    const store = await open();
    await store.append('gone', [user('1')]);
    await store.append('kept', [user('2')]);
    await store.delete('gone');
    expect(await store.load('gone')).toEqual([]);
    expect(await store.load('kept')).toEqual([user('2')]);
    expect((await store.list()).map((c) => c.id)).toEqual(['kept']);
  });

  it('conversations survive closing and reopening the database', async () => {
    const name = freshName();
    const before = await IndexedDbConversationStore.open(name);
    await before.append('c1', [user('1'), assistant('2')]);
    await closeAmbiDatabase(name);
    const after = await IndexedDbConversationStore.open(name);
    expect(await after.load('c1')).toEqual([user('1'), assistant('2')]);
  });
});
