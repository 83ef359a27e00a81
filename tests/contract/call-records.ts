// A call's record past `begin` and `finish`: asked, decided, a handle noted, standing decisions. The
// specification is run unchanged against the memory journal (Node) and IndexedDB (Chromium).
import { beforeEach, describe, expect, it } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import type { JournalAsk } from '../../src/store/journal-transitions.js';
import type { ToolCallJournal } from '../../src/store/types.js';
import { rejection, type StoreFixture, uncloneable } from './store-contracts.js';

/** A journal that keeps approvals: every optional step of `ToolCallJournal`. */
export type RecordingJournal = Required<ToolCallJournal>;

const asked = (callId: string, requestedAt = 10, conversation = 'c1'): JournalAsk => ({
  idempotencyKey: `key-${callId}`,
  callId,
  name: 'remove',
  arguments: { note: callId },
  conversation,
  requestedAt,
  tool: 'remove@1',
});

export function describeCallRecords(label: string, make: () => Promise<StoreFixture<RecordingJournal>>): void {
  describe(`a call's record, asked to done (${label})`, () => {
    let journal: RecordingJournal;
    beforeEach(async () => {
      journal = (await make()).store;
    });

    it('records an asked call, lists it with its conversation, and keeps the first ask of a call', async () => {
      await journal.ask(asked('b', 20));
      await journal.ask(asked('a', 10));
      await journal.ask({ ...asked('a', 99), arguments: { note: 'other' } });
      await journal.ask(asked('z', 5, 'c2'));
      const listed = (await journal.listByConversation('c1')).map((r) => [r.callId, r.state, r.requestedAt]);
      expect(listed.sort()).toEqual([
        ['a', 'asked', 10],
        ['b', 'asked', 20],
      ]);
      expect(await journal.get('key-a')).toMatchObject({ conversation: 'c1', name: 'remove', arguments: { note: 'a' }, tool: 'remove@1' });
    });

    it('records a decision on an asked call, with edited arguments; refuses one on a call never asked about', async () => {
      await journal.ask(asked('a'));
      await journal.decide('key-a', { approved: true, arguments: { note: 'edited' }, decidedAt: 30 });
      expect(await journal.get('key-a')).toMatchObject({ state: 'decided', decision: { approved: true, arguments: { note: 'edited' }, decidedAt: 30 } });
      expect(isAmbiError(await rejection(journal.decide('never', { approved: true, decidedAt: 30 })), 'storage_invalid')).toBe(true);
    });

    it('goes asked → decided → started → done in one record, keeping what each step said', async () => {
      await journal.ask({ ...asked('a'), target: { kind: 'tab', tabId: 1 } });
      await journal.decide('key-a', { approved: true, decidedAt: 11 });
      await journal.begin({ idempotencyKey: 'key-a', callId: 'a', name: 'remove', arguments: { note: 'a' }, conversation: 'c1' });
      const result = { id: 'a', name: 'remove', ok: true as const, output: 'removed', attempts: 1, durationMs: 2 };
      await journal.finish('key-a', result);
      expect(await journal.get('key-a')).toMatchObject({
        state: 'succeeded',
        requestedAt: 10,
        target: { kind: 'tab', tabId: 1 },
        decision: { approved: true, decidedAt: 11 },
        result,
      });
      // A decision once the call ran is refused: the record is final.
      expect(await rejection(journal.decide('key-a', { approved: false, decidedAt: 12 }))).toMatchObject({ code: 'journal_conflict', state: 'succeeded' });
    });

    it('notes a handle on a started call only', async () => {
      const handle = { kind: 'mcp_task' as const, server: 'https://tasks.example/mcp', taskId: 't-1' };
      await journal.ask(asked('a'));
      await journal.note('key-a', handle);
      expect((await journal.get('key-a'))?.handle).toBeUndefined();
      await journal.begin({ idempotencyKey: 'key-a', callId: 'a', name: 'remove', arguments: { note: 'a' } });
      await journal.note('key-a', handle);
      expect(await journal.get('key-a')).toMatchObject({ state: 'started', handle });
    });

    it('keeps standing decisions by conversation and tool', async () => {
      await journal.setStanding({ conversation: 'c1', tool: 'remove', approved: false, reason: 'never', decidedAt: 5 });
      expect(await journal.standing('c1', 'remove')).toMatchObject({ approved: false, reason: 'never' });
      expect(await journal.standing('c2', 'remove')).toBeUndefined();
      expect(await journal.standing('c1', 'other')).toBeUndefined();
      await journal.setStanding({ conversation: 'c1', tool: 'remove', approved: true, decidedAt: 6 });
      expect(await journal.standing('c1', 'remove')).toMatchObject({ approved: true, decidedAt: 6 });
    });

    it('refuses what it cannot hold with storage_invalid, and stores nothing', async () => {
      const bad: unknown[] = [
        { ...asked('a'), requestedAt: 'now' },
        { ...asked('a'), conversation: '' },
        { ...asked('a'), callId: '' },
        { ...asked('a'), idempotencyKey: 7 },
        null,
      ];
      for (const value of bad) expect(isAmbiError(await rejection(journal.ask(value as JournalAsk)), 'storage_invalid')).toBe(true);
      await journal.ask(asked('a'));
      const decision = { approved: 'yes', decidedAt: 1 } as unknown as { approved: boolean; decidedAt: number };
      expect(isAmbiError(await rejection(journal.decide('key-a', decision)), 'storage_invalid')).toBe(true);
      const standing = { conversation: 'c1', tool: 'remove', approved: true, decidedAt: Number.NaN };
      expect(isAmbiError(await rejection(journal.setStanding(standing)), 'storage_invalid')).toBe(true);
      expect((await journal.listByConversation('c1')).map((r) => [r.callId, r.state])).toEqual([['a', 'asked']]);
    });

    it('refuses arguments that cannot be stored with storage_uncloneable', async () => {
      const error = await rejection(journal.ask({ ...asked('a'), arguments: { callback: uncloneable } }));
      expect(isAmbiError(error, 'storage_uncloneable')).toBe(true);
      expect(await journal.listByConversation('c1')).toEqual([]);
    });
  });
}
