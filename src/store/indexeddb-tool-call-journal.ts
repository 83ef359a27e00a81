import type { CallHandle, ToolResult } from '../core/types.js';
import type { RecordedDecision, StandingDecision } from './approval-types.js';
import { noteConversationUse, refuseLostConversation } from './conversation-lives.js';
import { openAmbiDatabase, lifeOf, DEFAULT_DATABASE_NAME, type OpenDatabaseOptions } from './database.js';
import { DatabaseStore } from './database-store.js';
import { checkDecision, checkStandingKey, readStanding } from './decision-rules.js';
import { askedEntry, byUpdate, decidedEntry, finishedEntry, notedEntry, startedEntry, type JournalAsk, type JournalBegin } from './journal-transitions.js';
import { checkAsk, checkBegin, checkKey, checkResult, readEntry } from './journal-rules.js';
import { storageOperation } from './storage-failure.js';
import { queue, transact } from './transaction.js';
import type { JournalEntry, ToolCallJournal } from './types.js';

// The journal is a write-ahead log: a `started` record, or a decision, must be on disk before the call runs.
const DURABLE: IDBTransactionOptions = { durability: 'strict' };

/**
 * The record of calls in IndexedDB (an IndexedDbConversationStore's `journal`, on the same
 * database): each step reads and writes its record in one durable transaction. Standing
 * decisions live beside the records (store `standing`).
 */
export class IndexedDbToolCallJournal extends DatabaseStore implements ToolCallJournal {
  constructor(dbName: string, options: OpenDatabaseOptions = {}) {
    super(dbName, options);
  }

  /** Open the journal on a database (default `'ambi-web'`); rejects if the database cannot be opened. */
  static async open(dbName = DEFAULT_DATABASE_NAME, options: OpenDatabaseOptions = {}): Promise<IndexedDbToolCallJournal> {
    await openAmbiDatabase(dbName, options);
    return new IndexedDbToolCallJournal(dbName, options);
  }

  /**
   * Record `started`; rejects `journal_conflict` if the key is already started or finished, and
   * `storage_closed` if the entry's conversation was in use when its database was deleted
   * (the call must then not run: nothing is left to record it against).
   */
  async begin(entry: JournalBegin): Promise<void> {
    checkBegin(entry, 'begin a journal entry');
    const { idempotencyKey: key, conversation } = entry;
    return this.#write(`begin journal entry "${key}"`, key, (existing, now) => startedEntry(existing, entry, now), conversation);
  }

  /** Record the outcome; rejects `journal_missing` for an unknown key, `journal_conflict` for one not started. */
  async finish(idempotencyKey: string, result: ToolResult): Promise<void> {
    checkKey(idempotencyKey, 'finish a journal entry');
    checkResult(result, `finish journal entry "${idempotencyKey}"`);
    return this.#write(`finish journal entry "${idempotencyKey}"`, idempotencyKey, (existing, now) => finishedEntry(existing, idempotencyKey, result, now));
  }

  /** Record that a person is asked about a call (kept as it is when the same call is asked again). */
  async ask(entry: JournalAsk): Promise<void> {
    const action = `record the approval of call "${String(entry?.callId)}"`;
    checkAsk(entry, action);
    return this.#write(action, entry.idempotencyKey, (existing, now) => askedEntry(existing, entry, now), entry.conversation);
  }

  /** Record the decision on an asked call (`storage_invalid` for a call never asked about). */
  async decide(idempotencyKey: string, decision: RecordedDecision): Promise<void> {
    const action = `record the decision on the call of key "${String(idempotencyKey)}"`;
    checkKey(idempotencyKey, action);
    checkDecision(decision, action);
    return this.#write(action, idempotencyKey, (existing, now) => decidedEntry(existing, idempotencyKey, decision, now, action));
  }

  /** Note what a started call left running (nothing is written for a call that is not running). */
  async note(idempotencyKey: string, handle: CallHandle): Promise<void> {
    const action = `note the handle of the call of key "${String(idempotencyKey)}"`;
    checkKey(idempotencyKey, action);
    return this.#write(action, idempotencyKey, (existing, now) => notedEntry(existing, handle, now));
  }

  /** Read the entry under `key` and write its next state (none: nothing to write), in one durable transaction. */
  async #write(
    label: string,
    key: string,
    next: (existing: JournalEntry | undefined, now: number) => JournalEntry | undefined,
    conversation?: string,
  ): Promise<void> {
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
          const stored = await journal.get(key);
          const entry = next(stored === undefined ? undefined : readEntry(stored, label), Date.now());
          if (entry) queue(journal.put(entry));
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

  async setStanding(decision: StandingDecision): Promise<void> {
    const action = `record a standing decision for tool "${String(decision?.tool)}"`;
    checkStandingKey(decision?.conversation, decision?.tool, action);
    checkDecision(decision, action);
    await storageOperation(action, async () => {
      await transact(await this.db(), ['standing'], 'readwrite', async (tx) => queue(tx.objectStore('standing').put(decision)), DURABLE);
    });
  }

  async standing(conversation: string, tool: string): Promise<StandingDecision | undefined> {
    const action = `read the standing decision for tool "${String(tool)}"`;
    checkStandingKey(conversation, tool, action);
    return storageOperation(action, async () => {
      const found = await transact(await this.db(), ['standing'], 'readonly', (tx) => tx.objectStore('standing').get([conversation, tool]));
      return found === undefined ? undefined : readStanding(found, action);
    });
  }
}
