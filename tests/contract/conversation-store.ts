// The ConversationStore's specification, run unchanged against memory (Node) and IndexedDB (Chromium).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import { StorageError, type StorageErrorCode } from '../../src/errors/storage-error.js';
import type { ConversationStore } from '../../src/store/memory-conversation-store.js';
import type { Message } from '../../src/core/types.js';
import { rejection, uncloneable, type StoreFixture } from './store-contracts.js';

const user = (content: string): Message => ({ role: 'user', content });
const assistant = (content: string): Message => ({ role: 'assistant', content });
const asking = (...ids: string[]): Message => ({
  role: 'assistant',
  content: '',
  toolCalls: ids.map((id) => ({ id, name: 'add', arguments: { a: 1 } })),
});
const answer = (id: string): Message => ({ role: 'tool', toolCallId: id, name: 'add', content: '{"ok":true,"output":2}' });

/** The rejection of `promise`, which must be a StorageError with `code`. */
async function refusal(promise: Promise<unknown>, code: StorageErrorCode): Promise<StorageError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(StorageError);
  expect(isAmbiError(error, code)).toBe(true);
  return error as StorageError;
}

/** Specify a ConversationStore. */
export function describeConversationStore(label: string, make: () => Promise<StoreFixture<ConversationStore>>): void {
  describe(`${label} conversation store`, () => {
    let fixture: StoreFixture<ConversationStore>;
    let store: ConversationStore;
    beforeEach(async () => {
      fixture = await make();
      store = fixture.store;
    });
    afterEach(() => fixture.dispose());

    it('load of an unknown conversation is empty', async () => {
      expect(await store.load('missing')).toEqual([]);
    });

    it('load returns appended messages in append order, across appends', async () => {
      await store.append('c1', [user('one'), assistant('two')]);
      await store.append('c1', [user('three')]);
      expect(await store.load('c1')).toEqual([user('one'), assistant('two'), user('three')]);
    });

    it('messages keep every field, tool calls and provider fields included', async () => {
      const messages: Message[] = [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Format error', origin: 'runtime' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 't1', name: 'add', arguments: { a: 1, b: 2 }, provider: { index: 0 }, idempotencyKey: 'k1' }],
          provider: { reasoning: 'x' },
        },
        { role: 'tool', toolCallId: 't1', name: 'add', content: '{"ok":true,"output":3}' },
      ];
      await store.append('c1', messages);
      expect(await store.load('c1')).toEqual(messages);
    });

    it("keeps a tool message's untrusted mark, across appends and in the end a context budget reads", async () => {
      const marked: Message = { role: 'tool', toolCallId: 'r1', name: 'read_page', content: '{"ok":true,"output":"page words"}', untrusted: true };
      await store.append('c1', [user('read it'), { role: 'assistant', content: '', toolCalls: [{ id: 'r1', name: 'read_page', arguments: {} }] }]);
      await store.append('c1', [marked, assistant('It says words.')]);
      expect((await store.load('c1'))[2]).toEqual(marked);
      if (store.loadTail) expect((await store.loadTail('c1', 2)).messages[0]).toEqual(marked);
    });

    it('refuses a mark that is not `true` with storage_invalid, and stores nothing of the batch', async () => {
      const call: Message = { role: 'assistant', content: '', toolCalls: [{ id: 'r1', name: 'read_page', arguments: {} }] };
      for (const mark of [false, 'true', 1, null]) {
        const odd = { role: 'tool', toolCallId: 'r1', name: 'read_page', content: '{}', untrusted: mark } as unknown as Message;
        await refusal(store.append('c1', [user('read it'), call, odd]), 'storage_invalid');
      }
      expect(await store.load('c1')).toEqual([]);
    });

    it('an append of no messages stores nothing', async () => {
      await store.append('c1', []);
      expect(await store.load('c1')).toEqual([]);
    });

    it('changing appended or loaded messages does not change the stored ones', async () => {
      const written = [user('one')];
      await store.append('c1', written);
      (written[0] as { content: string }).content = 'changed';
      const read = await store.load('c1');
      read.push(user('added'));
      expect(await store.load('c1')).toEqual([user('one')]);
    });

    it('two conversations do not mix, even when one id starts the other', async () => {
      await store.append('a', [user('a1')]);
      await store.append('ab', [user('ab1')]);
      await store.append('a', [user('a2')]);
      await store.truncate('ab', 0);
      expect(await store.load('a')).toEqual([user('a1'), user('a2')]);
      expect(await store.load('ab')).toEqual([]);
    });

    it('tool messages may answer the calls of the assistant message before them, in the same append or a later one', async () => {
      await store.append('c1', [user('add twice'), asking('t1', 't2'), answer('t1')]);
      await store.append('c1', [answer('t2'), user('thanks')]);
      expect((await store.load('c1')).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user']);
    });

    it('an append with an uncloneable message rejects with storage_uncloneable and leaves the conversation as it was', async () => {
      await store.append('c1', [user('kept')]);
      const batch = [user('first of batch'), { ...assistant('bad'), provider: { callback: uncloneable } }, user('last')];
      await refusal(store.append('c1', batch), 'storage_uncloneable');
      expect(await store.load('c1')).toEqual([user('kept')]);
    });

    it.each<[string, unknown]>([
      ['not an object', 'hello'],
      ['null', null],
      ['no role', { content: 'hi' }],
      ['an unknown role', { role: 'developer', content: 'hi' }],
      ['content that is not text', { role: 'user', content: { text: 'hi' } }],
      ['an unknown origin', { role: 'user', content: 'hi', origin: 'model' }],
      ['tool calls that are not a list', { role: 'assistant', content: '', toolCalls: { id: 't1' } }],
      ['a tool call without an id', { role: 'assistant', content: '', toolCalls: [{ name: 'add', arguments: {} }] }],
      ['a tool call without a name', { role: 'assistant', content: '', toolCalls: [{ id: 't1', arguments: {} }] }],
      ['provider fields that are not an object', { role: 'assistant', content: '', provider: 'x' }],
      ['a tool message without its call id', { role: 'tool', name: 'add', content: '{}' }],
    ])('an append of a message with %s rejects with storage_invalid and stores nothing of the batch', async (_what, bad) => {
      await store.append('c1', [user('kept')]);
      const error = await refusal(store.append('c1', [user('first of batch'), bad as Message]), 'storage_invalid');
      expect(error.message).toContain('message 1 of the batch');
      expect(await store.load('c1')).toEqual([user('kept')]);
    });

    it('an append that would start a conversation with a tool message rejects with storage_invalid and creates nothing', async () => {
      const error = await refusal(store.append('c1', [answer('t1'), user('next')]), 'storage_invalid');
      expect(error.message).toContain('answers no call');
      expect(await store.load('c1')).toEqual([]);
    });

    it('an append of a tool message answering a call its assistant message did not make rejects with storage_invalid', async () => {
      await store.append('c1', [user('add'), asking('t1'), answer('t1')]);
      await refusal(store.append('c1', [answer('t9')]), 'storage_invalid');
      await refusal(store.append('c1', [assistant('no calls'), answer('t1')]), 'storage_invalid');
      expect(await store.load('c1')).toEqual([user('add'), asking('t1'), answer('t1')]);
    });

    describe('loadTail: the end of a conversation', () => {
      // Every store this project ships reads a conversation's end; the interface leaves it optional for others.
      const loadTail = (id: string, count: number) => {
        if (!store.loadTail) throw new Error('this store has no loadTail');
        return store.loadTail(id, count);
      };
      const system: Message = { role: 'system', content: 'Be brief.' };

      it('gives the last count messages, where they start, the length, and the first message', async () => {
        const messages = [system, user('1'), assistant('2'), user('3'), assistant('4')];
        await store.append('c1', messages);
        expect(await loadTail('c1', 2)).toEqual({ length: 5, start: 3, messages: messages.slice(3), first: system });
      });

      it('gives the whole conversation, without a separate first message, when count reaches its start', async () => {
        const messages = [system, user('1'), assistant('2')];
        await store.append('c1', messages);
        expect(await loadTail('c1', 3)).toEqual({ length: 3, start: 0, messages });
        expect(await loadTail('c1', 1000)).toEqual({ length: 3, start: 0, messages });
      });

      it('of an unknown conversation is empty, and creates nothing', async () => {
        expect(await loadTail('missing', 5)).toEqual({ length: 0, start: 0, messages: [] });
        expect(await store.load('missing')).toEqual([]);
      });

      it('may start on tool messages: they answer calls made before it', async () => {
        await store.append('c1', [user('1'), asking('t1', 't2'), answer('t1'), answer('t2'), assistant('done')]);
        expect(await loadTail('c1', 2)).toEqual({ length: 5, start: 3, messages: [answer('t2'), assistant('done')], first: user('1') });
      });

      it('reads what later appends and truncates left', async () => {
        await store.append('c1', [user('1'), assistant('2'), user('3')]);
        await store.truncate('c1', 2);
        await store.append('c1', [user('4')]);
        expect(await loadTail('c1', 2)).toEqual({ length: 3, start: 1, messages: [assistant('2'), user('4')], first: user('1') });
      });

      it('gives copies: changing them does not change the stored messages', async () => {
        await store.append('c1', [user('1'), assistant('2'), user('3')]);
        const tail = await loadTail('c1', 1);
        (tail.messages[0] as { content: string }).content = 'changed';
        (tail.first as { content: string }).content = 'changed';
        expect(await store.load('c1')).toEqual([user('1'), assistant('2'), user('3')]);
      });

      it('refuses a count that is not a whole number >= 1 with storage_invalid', async () => {
        await store.append('c1', [user('1')]);
        for (const count of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '2' as unknown as number]) {
          const error = await refusal(loadTail('c1', count), 'storage_invalid');
          expect(error.message).toContain('whole number >= 1');
        }
        await refusal(loadTail(7 as unknown as string, 1), 'storage_invalid');
      });
    });

    it('truncate keeps the first length messages, and an append continues from the cut', async () => {
      await store.append('c1', [user('1'), assistant('2'), user('3'), assistant('4')]);
      await store.truncate('c1', 2);
      expect(await store.load('c1')).toEqual([user('1'), assistant('2')]);
      await store.append('c1', [user('new 3')]);
      expect(await store.load('c1')).toEqual([user('1'), assistant('2'), user('new 3')]);
    });

    it('truncate to 0 empties the conversation', async () => {
      await store.append('c1', [user('1'), assistant('2')]);
      await store.truncate('c1', 0);
      expect(await store.load('c1')).toEqual([]);
    });

    it('truncate to a length beyond the conversation changes nothing', async () => {
      await store.append('c1', [user('1')]);
      await store.truncate('c1', 5);
      expect(await store.load('c1')).toEqual([user('1')]);
    });

    it('truncate of an unknown conversation resolves and creates nothing', async () => {
      await store.truncate('missing', 0);
      expect(await store.load('missing')).toEqual([]);
    });

    it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('truncate to %s rejects with storage_invalid and changes nothing', async (length) => {
      await store.append('c1', [user('1'), assistant('2')]);
      await refusal(store.truncate('c1', length), 'storage_invalid');
      expect(await store.load('c1')).toEqual([user('1'), assistant('2')]);
    });

    it.each<[string, (s: ConversationStore, id: string) => Promise<unknown>]>([
      ['load', (s, id) => s.load(id)],
      ['append', (s, id) => s.append(id, [user('1')])],
      ['truncate', (s, id) => s.truncate(id, 0)],
    ])('%s with an id that is not a string rejects with storage_invalid', async (_method, operation) => {
      await refusal(operation(store, 42 as unknown as string), 'storage_invalid');
      await refusal(operation(store, undefined as unknown as string), 'storage_invalid');
    });
  });
}
