import type { CallHandle, ToolResult } from '../core/types.js';
import type { RecordedDecision, StandingDecision } from './approval-types.js';
import { checkDecision, checkStandingKey } from './decision-rules.js';
import { askedEntry, byUpdate, decidedEntry, finishedEntry, notedEntry, startedEntry, type JournalAsk, type JournalBegin } from './journal-transitions.js';
import { checkAsk, checkBegin, checkKey, checkResult } from './journal-rules.js';
import { toStorageError } from './storage-failure.js';
import type { JournalEntry, ToolCallJournal } from './types.js';

/**
 * What a MemoryToolCallJournal keeps, and the rules it keeps it by (loaded with the journal's first
 * call, see first-call.ts): same steps, rules and errors as the IndexedDB one.
 */
export class KeptJournal implements ToolCallJournal {
  readonly #entries = new Map<string, JournalEntry>();
  readonly #standing = new Map<string, StandingDecision>();

  /** Record `started`; rejects `journal_conflict` if the key is already started or finished. */
  async begin(entry: JournalBegin): Promise<void> {
    checkBegin(entry, 'begin a journal entry');
    this.#put(startedEntry(this.#entries.get(entry.idempotencyKey), entry, Date.now()), `begin journal entry "${entry.idempotencyKey}"`);
  }

  /** Record the outcome; rejects `journal_missing` for an unknown key, `journal_conflict` for one not started. */
  async finish(idempotencyKey: string, result: ToolResult): Promise<void> {
    checkKey(idempotencyKey, 'finish a journal entry');
    checkResult(result, `finish journal entry "${idempotencyKey}"`);
    this.#put(finishedEntry(this.#entries.get(idempotencyKey), idempotencyKey, result, Date.now()), `finish journal entry "${idempotencyKey}"`);
  }

  /** Record that a person is asked about a call (kept as it is when the same call is asked again). */
  async ask(entry: JournalAsk): Promise<void> {
    const action = `record the approval of call "${String(entry?.callId)}"`;
    checkAsk(entry, action);
    const asked = askedEntry(this.#entries.get(entry.idempotencyKey), entry, Date.now());
    if (asked) this.#put(asked, action);
  }

  /** Record the decision on an asked call (`storage_invalid` for a call never asked about). */
  async decide(idempotencyKey: string, decision: RecordedDecision): Promise<void> {
    const action = `record the decision on the call of key "${String(idempotencyKey)}"`;
    checkKey(idempotencyKey, action);
    checkDecision(decision, action);
    this.#put(decidedEntry(this.#entries.get(idempotencyKey), idempotencyKey, decision, Date.now(), action), action);
  }

  /** Note what a started call left running (ignored for one not started yet; refused for one with no record, or done). */
  async note(idempotencyKey: string, handle: CallHandle): Promise<void> {
    const action = `note the handle of the call of key "${String(idempotencyKey)}"`;
    checkKey(idempotencyKey, action);
    const noted = notedEntry(this.#entries.get(idempotencyKey), idempotencyKey, handle, Date.now());
    if (noted) this.#put(noted, action);
  }

  /** A copy of the entry under this key, if any. */
  async get(idempotencyKey: string): Promise<JournalEntry | undefined> {
    checkKey(idempotencyKey, 'read a journal entry');
    const entry = this.#entries.get(idempotencyKey);
    return entry && structuredClone(entry);
  }

  /** Copies of a conversation's entries, oldest update first (say, to find calls a reload cut off). */
  async listByConversation(conversation: string): Promise<JournalEntry[]> {
    return [...this.#entries.values()]
      .filter((entry) => entry.conversation === conversation)
      .sort(byUpdate)
      .map((entry) => structuredClone(entry));
  }

  async setStanding(decision: StandingDecision): Promise<void> {
    const action = `record a standing decision for tool "${String(decision?.tool)}"`;
    checkStandingKey(decision?.conversation, decision?.tool, action);
    checkDecision(decision, action);
    this.#standing.set(JSON.stringify([decision.conversation, decision.tool]), copy(decision, action));
  }

  async standing(conversation: string, tool: string): Promise<StandingDecision | undefined> {
    checkStandingKey(conversation, tool, `read the standing decision for tool "${String(tool)}"`);
    const found = this.#standing.get(JSON.stringify([conversation, tool]));
    return found && structuredClone(found);
  }

  /** Forget every record and standing decision of a conversation (it was deleted). */
  clear(conversation: string): void {
    for (const [key, entry] of this.#entries) if (entry.conversation === conversation) this.#entries.delete(key);
    for (const [key, decision] of this.#standing) if (decision.conversation === conversation) this.#standing.delete(key);
  }

  #put(entry: JournalEntry, action: string): void {
    this.#entries.set(entry.idempotencyKey, copy(entry, action));
  }
}

// Clone as IndexedDB would, refusing the same values with the same coded error.
function copy<T>(value: T, action: string): T {
  try {
    return structuredClone(value);
  } catch (error) {
    throw toStorageError(error, action);
  }
}
