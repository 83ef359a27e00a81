// What `list()` and `delete()` of a conversation store say, run unchanged against memory (Node)
// and IndexedDB (Chromium): each conversation's count follows every append, truncate and delete.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConversationInfo, ConversationStore } from '../../src/store/conversation-store.js';
import type { Message } from '../../src/core/types.js';
import type { StoreFixture } from './store-contracts.js';

/** A conversation store that lists and deletes its conversations (both implementations do). */
export type ListingConversationStore = ConversationStore & { list(): Promise<ConversationInfo[]>; delete(id: string): Promise<void> };

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });
const counts = (list: ConversationInfo[]) => list.map(({ id, length }) => ({ id, length }));

/** Specify a conversation store's listing. */
export function describeConversationList(label: string, make: () => Promise<StoreFixture<ListingConversationStore>>): void {
  describe(`${label} conversation list`, () => {
    let fixture: StoreFixture<ListingConversationStore>;
    let store: ListingConversationStore;
    beforeEach(async () => {
      fixture = await make();
      store = fixture.store;
    });
    afterEach(() => fixture.dispose());

    it('an empty store lists nothing', async () => {
      expect(await store.list()).toEqual([]);
    });

    it('each count follows its appends, oldest conversation first', async () => {
      await store.append('first', [user('1')]);
      await store.append('second', [user('1'), assistant('2'), user('3')]);
      await store.append('first', [assistant('2'), user('3'), assistant('4')]);
      expect(counts(await store.list())).toEqual([
        { id: 'first', length: 4 },
        { id: 'second', length: 3 },
      ]);
    });

    it('a truncate sets the count to what is kept, and a truncate past the end changes nothing', async () => {
      await store.append('c', [user('1'), assistant('2'), user('3'), assistant('4')]);
      await store.truncate('c', 1);
      expect(counts(await store.list())).toEqual([{ id: 'c', length: 1 }]);
      const [before] = await store.list();
      await store.truncate('c', 9);
      expect(await store.list()).toEqual([before]);
      await store.truncate('c', 0);
      expect(counts(await store.list())).toEqual([{ id: 'c', length: 0 }]);
      await store.append('c', [user('again')]);
      expect(counts(await store.list())).toEqual([{ id: 'c', length: 1 }]);
    });

    it("a delete drops the conversation from the list with its calls' records and standing decisions, and its id starts again from no messages", async () => {
      await store.append('gone', [user('1'), assistant('2')]);
      await store.append('kept', [user('1')]);
      const journal = store.journal!;
      const asked = (conversation: string) => ({
        idempotencyKey: `${conversation}-a`,
        callId: 'a',
        name: 'remove',
        arguments: {},
        conversation,
        requestedAt: 1,
      });
      await journal.ask!(asked('gone'));
      await journal.ask!(asked('kept'));
      await journal.setStanding!({ conversation: 'gone', tool: 'remove', approved: true, decidedAt: 1 });
      await store.delete('gone');
      expect(counts(await store.list())).toEqual([{ id: 'kept', length: 1 }]);
      expect(await store.load('gone')).toEqual([]);
      expect(await journal.listByConversation!('gone')).toEqual([]);
      expect(await journal.standing!('gone', 'remove')).toBeUndefined();
      expect(await journal.listByConversation!('kept')).toHaveLength(1);
      await store.append('gone', [user('new')]);
      expect(counts(await store.list()).find((c) => c.id === 'gone')).toEqual({ id: 'gone', length: 1 });
    });

    it('a refused append leaves the count as it was, and an empty append creates nothing', async () => {
      await store.append('c', [user('1')]);
      const orphan: Message = { role: 'tool', toolCallId: 'nobody-called', name: 'add', content: '2' };
      await expect(store.append('c', [assistant('2'), orphan])).rejects.toThrow();
      await store.append('empty', []);
      expect(counts(await store.list())).toEqual([{ id: 'c', length: 1 }]);
    });

    it('times: created at the first append, updated by the later writes', async () => {
      await store.append('c', [user('1')]);
      const [made] = await store.list();
      await new Promise((resolve) => setTimeout(resolve, 5));
      await store.append('c', [assistant('2')]);
      const [grown] = await store.list();
      expect(grown!.createdAt).toBe(made!.createdAt);
      expect(grown!.updatedAt).toBeGreaterThan(made!.updatedAt);
    });

    it('counts stay right across 200 conversations of different lengths after appends, truncates and deletes', async () => {
      const expected = new Map<string, number>();
      for (let i = 0; i < 200; i++) {
        const length = 1 + (i % 7);
        await store.append(
          `c${i}`,
          Array.from({ length }, (_, j) => (j % 2 ? assistant(`${j}`) : user(`${j}`))),
        );
        expected.set(`c${i}`, length);
      }
      for (let i = 0; i < 200; i += 3) {
        await store.truncate(`c${i}`, 1);
        expected.set(`c${i}`, 1);
      }
      for (let i = 1; i < 200; i += 5) {
        await store.delete(`c${i}`);
        expected.delete(`c${i}`);
      }
      const listed = new Map((await store.list()).map(({ id, length }) => [id, length]));
      expect(listed).toEqual(expected);
    });
  });
}
