// The ApprovalStore's specification, run unchanged against the memory store (Node) and IndexedDB (Chromium).
import { beforeEach, describe, expect, it } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import type { ApprovalStore, PendingApproval } from '../../src/store/approval-types.js';
import { rejection, type StoreFixture, uncloneable } from './store-contracts.js';

const pending = (callId: string, requestedAt = 10, idempotencyKey = `key-${callId}`): PendingApproval => ({
  callId,
  call: { id: callId, name: 'remove', arguments: { note: callId }, idempotencyKey },
  requestedAt,
});

export function describeApprovalStore(label: string, make: () => Promise<StoreFixture<ApprovalStore>>): void {
  describe(`ApprovalStore (${label})`, () => {
    let store: ApprovalStore;
    beforeEach(async () => {
      store = (await make()).store;
    });

    it('records a request, lists it by conversation oldest first, and keeps the first request of a call', async () => {
      await store.request('c1', pending('b', 20));
      await store.request('c1', pending('a', 10));
      await store.request('c1', pending('a', 99));
      await store.request('c2', pending('z'));
      expect((await store.list('c1')).map((r) => [r.callId, r.requestedAt])).toEqual([
        ['a', 10],
        ['b', 20],
      ]);
      expect(await store.get('c1', 'a')).toMatchObject({ conversation: 'c1', call: { name: 'remove', arguments: { note: 'a' } } });
      expect(await store.get('c1', 'z')).toBeUndefined();
    });

    it('replaces the record of a call id when another call (another idempotency key) is asked under it, decision and all', async () => {
      await store.request('c1', pending('a', 10, 'first'));
      await store.decide('c1', 'a', { approved: true, decidedAt: 11 });
      await store.request('c1', pending('a', 50, 'second'));
      const record = await store.get('c1', 'a');
      expect(record).toMatchObject({ requestedAt: 50, call: { idempotencyKey: 'second' } });
      expect(record?.decision).toBeUndefined();
    });

    it('records a decision on a requested call, with edited arguments, and refuses one on a call never requested', async () => {
      await store.request('c1', pending('a'));
      await store.decide('c1', 'a', { approved: true, arguments: { note: 'edited' }, decidedAt: 30 });
      expect((await store.get('c1', 'a'))?.decision).toEqual({ approved: true, arguments: { note: 'edited' }, decidedAt: 30 });
      const error = await rejection(store.decide('c1', 'never', { approved: true, decidedAt: 30 }));
      expect(isAmbiError(error, 'storage_invalid')).toBe(true);
    });

    it('forgets the records of given calls only', async () => {
      await store.request('c1', pending('a'));
      await store.request('c1', pending('b'));
      await store.forget('c1', ['a', 'missing']);
      expect((await store.list('c1')).map((r) => r.callId)).toEqual(['b']);
    });

    it('keeps standing decisions by conversation and tool', async () => {
      await store.setStanding({ conversation: 'c1', tool: 'remove', approved: false, reason: 'never', decidedAt: 5 });
      expect(await store.standing('c1', 'remove')).toMatchObject({ approved: false, reason: 'never' });
      expect(await store.standing('c2', 'remove')).toBeUndefined();
      expect(await store.standing('c1', 'other')).toBeUndefined();
      await store.setStanding({ conversation: 'c1', tool: 'remove', approved: true, decidedAt: 6 });
      expect(await store.standing('c1', 'remove')).toMatchObject({ approved: true, decidedAt: 6 });
    });

    it('refuses what it cannot hold with storage_invalid, and stores nothing', async () => {
      const bad: unknown[] = [
        { ...pending('a'), requestedAt: 'now' },
        { ...pending('a'), call: { id: 'other', name: 'remove', arguments: {} } },
        { ...pending(''), call: { id: '', name: 'remove' } },
        null,
      ];
      for (const value of bad) expect(isAmbiError(await rejection(store.request('c1', value as PendingApproval)), 'storage_invalid')).toBe(true);
      expect(isAmbiError(await rejection(store.request('', pending('a'))), 'storage_invalid')).toBe(true);
      await store.request('c1', pending('a'));
      const decision = { approved: 'yes', decidedAt: 1 } as unknown as { approved: boolean; decidedAt: number };
      expect(isAmbiError(await rejection(store.decide('c1', 'a', decision)), 'storage_invalid')).toBe(true);
      expect(
        isAmbiError(await rejection(store.setStanding({ conversation: 'c1', tool: 'remove', approved: true, decidedAt: Number.NaN })), 'storage_invalid'),
      ).toBe(true);
      expect((await store.list('c1')).map((r) => [r.callId, r.decision])).toEqual([['a', undefined]]);
    });

    it('refuses arguments that cannot be stored with storage_uncloneable', async () => {
      const error = await rejection(store.request('c1', { ...pending('a'), call: { id: 'a', name: 'remove', arguments: { callback: uncloneable } } }));
      expect(isAmbiError(error, 'storage_uncloneable')).toBe(true);
      expect(await store.list('c1')).toEqual([]);
    });
  });
}
