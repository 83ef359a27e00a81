import type { ToolResult } from '../core/types.js';
import { noteConversationUse, refuseLostConversation } from './conversation-lives.js';
import { openAmbiDatabase, lifeOf, DEFAULT_DATABASE_NAME, type OpenDatabaseOptions } from './database.js';
import { DatabaseStore } from './database-store.js';
import { byUpdate, finishedEntry, notedEntry, startedEntry, type JournalBegin } from './journal-transitions.js';
import type { CallHandle } from '../core/types.js';
import { checkBegin, checkKey, checkResult, readEntry } from './journal-rules.js';
import { storageOperation } from './storage-failure.js';
import { queue, transact } from './transaction.js';
import type { JournalEntry, ToolCallJournal } from './types.js';

// The journal is a write-ahead log: a `started` record must be on disk before the call runs.
const DURABLE: IDBTransactionOptions = { durability: 'strict' };

/** The tool-call journal in IndexedDB: each transition reads and writes its entry in one transaction. */
export class IndexedDbToolCallJournal extends DatabaseStore implements ToolCallJournal {
  /** Open the journal on a database (default `'ambi-web'`); rejects if the database cannot be opened. */
  static async open(dbName = DEFAULT_DATABASE_NAME, options: OpenDatabaseOptions = {}): Promise<IndexedDbToolCallJournal> {
    await openAmbiDatabase(dbName, options);
    return new IndexedDbToolCallJournal(dbName, options);
  }

  /**
   * Record `started`; rejects `journal_conflict` if the key is already journalled, and
   * `storage_closed` if the entry's conversation was in use when its database was deleted
   * (the call must then not run: nothing is left to record it against).
   */
  async begin(entry: JournalBegin): Promise<void> {
    checkBegin(entry, 'begin a journal entry');
    const { idempotencyKey: key, conversation } = entry;
    return this.#write(`begin journal entry "${key}"`, key, (existing, now) => startedEntry(existing, entry, now), conversation);
  }

  /** Record the outcome; rejects `journal_missing` for an unknown key, `journal_conflict` for a finished one. */
  async finish(idempotencyKey: string, result: ToolResult): Promise<void> {
    checkKey(idempotencyKey, 'finish a journal entry');
    checkResult(result, `finish journal entry "${idempotencyKey}"`);
    return this.#write(`finish journal entry "${idempotencyKey}"`, idempotencyKey, (existing, now) => finishedEntry(existing, idempotencyKey, result, now));
  }

  /** Note what the started call leaves running; rejects `journal_missing` / `journal_conflict` as `finish` does. */
  async note(idempotencyKey: string, handle: CallHandle): Promise<void> {
    checkKey(idempotencyKey, 'note a journal entry');
    return this.#write(`note journal entry "${idempotencyKey}"`, idempotencyKey, (existing, now) => notedEntry(existing, idempotencyKey, handle, now));
  }

  /** Read the entry under `key` and write its next state, in one durable transaction. */
  async #write(label: string, key: string, next: (existing: JournalEntry | undefined, now: number) => JournalEntry, conversation?: string): Promise<void> {
    return storageOperation(label, async () => {
      if (conversation !== undefined) refuseLostConversation(this.dbName, conversation, label);
      const db = await this.db();
      // Opening may be what revealed the loss (a database deleted while no connection was open).
      if (conversation !== undefined) refuseLostConversation(this.dbName, conversation, label);
      await transact(
        db,
        ['journal'],
        'readwrite',
        async (tx) => {
          const journal = tx.objectStore('journal');
          queue(journal.put(next(await journal.get(key), Date.now())));
        },
        DURABLE,
      );
      if (conversation !== undefined) noteConversationUse(this.dbName, conversation, lifeOf(db));
    });
  }

  /** The entry under this key, if any; rejects `storage_corrupt` if what is stored is not an entry this journal writes. */
  async get(idempotencyKey: string): Promise<JournalEntry | undefined> {
    checkKey(idempotencyKey, 'read a journal entry');
    const action = `read journal entry "${idempotencyKey}"`;
    return storageOperation(action, async () => {
      const stored = await transact(await this.db(), ['journal'], 'readonly', (tx) => tx.objectStore('journal').get(idempotencyKey));
      return stored === undefined ? undefined : readEntry(stored, action);
    });
  }

  /** A conversation's entries, oldest update first (say, to find calls a reload cut off). */
  async listByConversation(conversation: string): Promise<JournalEntry[]> {
    const action = `list journal entries of conversation "${conversation}"`;
    return storageOperation(action, async () => {
      const entries = await transact(await this.db(), ['journal'], 'readonly', (tx) => tx.objectStore('journal').index('conversation').getAll(conversation));
      return entries.map((entry) => readEntry(entry, action)).sort(byUpdate);
    });
  }
}
