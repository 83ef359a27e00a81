import type { ToolCall } from '../../core/types.js';
import type { JournalEntry, ToolCallJournal } from '../../store/types.js';
import { isDeepStrictEqual } from './same-json.js';

/**
 * What the journal says of a call: its record (`JournalEntry`: asked, decided, started, done);
 * `null` when the journal answered it has none; undefined when nobody can tell (no journal, a call
 * stored without an idempotency key, a journal that cannot be read, or a record that is not this
 * call's: another id, or other arguments).
 */
export type CallRecord = JournalEntry | null | undefined;

/**
 * The one read of an interrupted run's records: each call's record, by its idempotency key, in
 * the order of `calls`. What the resume extension (a resume, a new run's report) and
 * `pendingApprovals` decide from; nothing else is read. A journal that cannot answer answers
 * nothing, and `unreadable` hears why.
 */
export async function readCallRecords(
  journal: ToolCallJournal | undefined,
  calls: readonly ToolCall[],
  unreadable: (error: unknown) => void = () => {},
): Promise<CallRecord[]> {
  return Promise.all(
    calls.map(async (call) => {
      const key = call.idempotencyKey;
      if (!journal || key === undefined) return undefined;
      let record: JournalEntry | undefined;
      try {
        record = await journal.get(key);
      } catch (error) {
        unreadable(error);
        return undefined;
      }
      if (!record) return null;
      // Bound to exactly this call: a record of another call under its key decides nothing of it.
      return record.callId === call.id && isDeepStrictEqual(record.arguments, call.arguments) ? record : undefined;
    }),
  );
}
