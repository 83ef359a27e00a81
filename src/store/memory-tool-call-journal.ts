import type { CallHandle, ToolResult } from '../core/types.js';
import type { RecordedDecision, StandingDecision } from './approval-types.js';
import { FirstCallLoad } from './first-call.js';
import type { JournalAsk, JournalBegin } from './journal-transitions.js';
import type { JournalEntry, ToolCallJournal } from './types.js';

/**
 * The record of calls in memory (a MemoryConversationStore's `journal`, or an agent's own), for
 * tests, Node and pages that keep nothing; same steps, rules and errors as the IndexedDB one. What
 * it keeps and its rules load with its first call.
 */
export class MemoryToolCallJournal implements ToolCallJournal {
  readonly #kept = new FirstCallLoad(async () => new (await import('./kept-journal.js')).KeptJournal());

  /** Record `started`; rejects `journal_conflict` if the key is already started or finished. */
  begin(entry: JournalBegin): Promise<void> {
    return this.#kept.call((kept) => kept.begin(entry));
  }

  /** Record the outcome; rejects `journal_missing` for an unknown key, `journal_conflict` for one not started. */
  finish(idempotencyKey: string, result: ToolResult): Promise<void> {
    return this.#kept.call((kept) => kept.finish(idempotencyKey, result));
  }

  /** Record that a person is asked about a call (kept as it is when the same call is asked again). */
  ask(entry: JournalAsk): Promise<void> {
    return this.#kept.call((kept) => kept.ask(entry));
  }

  /** Record the decision on an asked call (`storage_invalid` for a call never asked about). */
  decide(idempotencyKey: string, decision: RecordedDecision): Promise<void> {
    return this.#kept.call((kept) => kept.decide(idempotencyKey, decision));
  }

  /** Note what a started call left running (ignored for one not started yet; refused for one with no record, or done). */
  note(idempotencyKey: string, handle: CallHandle): Promise<void> {
    return this.#kept.call((kept) => kept.note(idempotencyKey, handle));
  }

  /** A copy of the entry under this key, if any. */
  get(idempotencyKey: string): Promise<JournalEntry | undefined> {
    return this.#kept.call((kept) => kept.get(idempotencyKey));
  }

  /** Copies of a conversation's entries, oldest update first (say, to find calls a reload cut off). */
  listByConversation(conversation: string): Promise<JournalEntry[]> {
    return this.#kept.call((kept) => kept.listByConversation(conversation));
  }

  setStanding(decision: StandingDecision): Promise<void> {
    return this.#kept.call((kept) => kept.setStanding(decision));
  }

  standing(conversation: string, tool: string): Promise<StandingDecision | undefined> {
    return this.#kept.call((kept) => kept.standing(conversation, tool));
  }

  /** Forget every record and standing decision of a conversation (it was deleted), after the calls made before this. */
  clear(conversation: string): void {
    // Nothing was recorded before the first call: nothing to forget.
    if (this.#kept.started) this.#kept.call((kept) => kept.clear(conversation)).catch(() => {});
  }
}
