import type { ToolResult } from '../core/types.js';
import { byUpdate, finishedEntry, notedEntry, startedEntry, type JournalBegin } from './journal-transitions.js';
import type { CallHandle } from '../core/types.js';
import { checkBegin, checkKey, checkResult } from './journal-rules.js';
import { toStorageError } from './storage-failure.js';
import type { JournalEntry, ToolCallJournal } from './types.js';

/** A tool-call journal in memory, for tests and Node; same transitions and errors as the IndexedDB one. */
export class MemoryToolCallJournal implements ToolCallJournal {
  readonly #entries = new Map<string, JournalEntry>();

  /** Record `started`; rejects `journal_conflict` if the key is already journalled. */
  async begin(entry: JournalBegin): Promise<void> {
    checkBegin(entry, 'begin a journal entry');
    const started = startedEntry(this.#entries.get(entry.idempotencyKey), entry, Date.now());
    this.#entries.set(started.idempotencyKey, copy(started, `begin journal entry "${entry.idempotencyKey}"`));
  }

  /** Record the outcome; rejects `journal_missing` for an unknown key, `journal_conflict` for a finished one. */
  async finish(idempotencyKey: string, result: ToolResult): Promise<void> {
    checkKey(idempotencyKey, 'finish a journal entry');
    checkResult(result, `finish journal entry "${idempotencyKey}"`);
    const finished = finishedEntry(this.#entries.get(idempotencyKey), idempotencyKey, result, Date.now());
    this.#entries.set(idempotencyKey, copy(finished, `finish journal entry "${idempotencyKey}"`));
  }

  /** Note what the started call leaves running; rejects `journal_missing` / `journal_conflict` as `finish` does. */
  async note(idempotencyKey: string, handle: CallHandle): Promise<void> {
    checkKey(idempotencyKey, 'note a journal entry');
    const noted = notedEntry(this.#entries.get(idempotencyKey), idempotencyKey, handle, Date.now());
    this.#entries.set(idempotencyKey, copy(noted, `note journal entry "${idempotencyKey}"`));
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
}

// Clone as IndexedDB would, refusing the same values with the same coded error.
function copy(entry: JournalEntry, action: string): JournalEntry {
  try {
    return structuredClone(entry);
  } catch (error) {
    throw toStorageError(error, action);
  }
}
