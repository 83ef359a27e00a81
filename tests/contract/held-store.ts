// The HeldValueStore's specification, run unchanged against the memory store (Node) and IndexedDB (Chromium).
import { beforeEach, describe, expect, it } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import type { HeldValueStore } from '../../src/store/held-types.js';
import { rejection, type StoreFixture } from './store-contracts.js';

export function describeHeldStore(label: string, make: () => Promise<StoreFixture<HeldValueStore>>): void {
  describe(`HeldValueStore (${label})`, () => {
    let store: HeldValueStore;
    beforeEach(async () => {
      store = (await make()).store;
    });

    it('holds values under $1, $2, … per conversation, marked, with their tool, call, JSON type and length', async () => {
      const first = await store.hold('c1', { from: 'read_page', callId: 'r1', value: 'page words' });
      const second = await store.hold('c1', { from: 'read_mail', callId: 'r2', value: { subject: 'hi', to: ['a'] } });
      const other = await store.hold('c2', { from: 'read_page', callId: 'r9', value: null });
      expect([first.id, second.id, other.id]).toEqual(['$1', '$2', '$1']);
      expect(first).toMatchObject({ conversation: 'c1', seq: 1, from: 'read_page', callId: 'r1', type: 'string', length: 12, untrusted: true });
      expect(second).toMatchObject({ type: 'object', length: JSON.stringify({ subject: 'hi', to: ['a'] }).length });
      expect(other.type).toBe('null');
      expect(await store.get('c1', '$2')).toMatchObject({ id: '$2', from: 'read_mail', value: { subject: 'hi', to: ['a'] }, untrusted: true });
      expect((await store.list('c1')).map((info) => [info.id, info.from])).toEqual([
        ['$1', 'read_page'],
        ['$2', 'read_mail'],
      ]);
      // What is listed carries no value.
      expect((await store.list('c1'))[0]).not.toHaveProperty('value');
    });

    it('gives nothing for an id it never gave, in this conversation or at all (a model that invents ids)', async () => {
      await store.hold('c1', { from: 't', callId: 'x', value: 1 });
      for (const id of ['$2', '$0', '$01', '1', '$1 ', '$-1', '$1e3', '__proto__', 'constructor', '$99999999999999999999'])
        expect(await store.get('c1', id)).toBeUndefined();
      expect(await store.get('c2', '$1')).toBeUndefined();
    });

    it('returns copies: changing what was read changes nothing held', async () => {
      await store.hold('c1', { from: 't', callId: 'x', value: { list: [1, 2] } });
      const read = await store.get('c1', '$1');
      (read!.value as { list: number[] }).list.push(3);
      expect((await store.get('c1', '$1'))!.value).toEqual({ list: [1, 2] });
    });

    it('refuses what it does not hold (no tool, not JSON, a conversation id that is no string), holding nothing', async () => {
      for (const entry of [
        { from: '', callId: 'x', value: 1 },
        { from: 't', callId: 'x', value: undefined },
        { from: 't', callId: 7, value: 1 },
      ])
        expect(isAmbiError(await rejection(store.hold('c1', entry as never)), 'storage_invalid')).toBe(true);
      expect(isAmbiError(await rejection(store.hold(7 as never, { from: 't', callId: 'x', value: 1 })), 'storage_invalid')).toBe(true);
      expect(await store.list('c1')).toEqual([]);
    });

    it('holds values held at once under distinct ids (parallel calls of one reply)', async () => {
      const infos = await Promise.all(Array.from({ length: 12 }, (_, i) => store.hold('c1', { from: 't', callId: `r${i}`, value: i })));
      expect(new Set(infos.map((info) => info.id)).size).toBe(12);
      expect((await store.list('c1')).map((info) => info.seq)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    });
  });
}
