import type { ConversationInfo, ConversationStore, ConversationTail } from './conversation-store.js';
import type { Message } from '../core/types.js';
import { withBlobParts } from './blob-parts.js';
import { checkAnswers, checkConversationId, checkCount, checkLength, checkMessages } from './conversation-rules.js';
import { forgetConversationUse, noteConversationUse, refuseLostConversation } from './conversation-lives.js';
import { openAmbiDatabase, lifeOf, DEFAULT_DATABASE_NAME, type OpenDatabaseOptions } from './database.js';
import { DatabaseStore } from './database-store.js';
import { ofConversation } from './by-conversation.js';
import { IndexedDbToolCallJournal } from './indexeddb-tool-call-journal.js';
import { IndexedDbHeldStore } from './indexeddb-held-store.js';
import type { AmbiDatabase } from './schema.js';
import { storageOperation } from './storage-failure.js';
import { queue, transact } from './transaction.js';
import { byCreation } from './by-creation.js';
import { checkedRecords, intactMessages, intactTail, isCount, openCalls, repairedRecord, storedExtent, tail } from './stored-conversation.js';

/** What `list()` tells about a stored conversation. */
export type { ConversationInfo } from './conversation-store.js';

/**
 * Conversations in IndexedDB: each append, truncate and delete is one all-or-nothing
 * transaction. The message rows are the conversation; its record (length, times) is
 * derived from them in the same transaction, so a write never trusts a record over the rows
 * and repairs a wrong one; `list()` reads the records' lengths as they are. Rows that are
 * not what this store writes are refused (`storage_corrupt`).
 */
export class IndexedDbConversationStore extends DatabaseStore implements ConversationStore {
  /** The record of these conversations' calls (same database): asked, decided, started, done, and standing decisions. */
  readonly journal: IndexedDbToolCallJournal;
  /** The held values of these conversations (same database), for runs in `untrusted: 'hold'` mode. */
  readonly held: IndexedDbHeldStore;

  protected constructor(dbName: string, options: OpenDatabaseOptions) {
    super(dbName, options);
    this.journal = new IndexedDbToolCallJournal(dbName, options);
    this.held = new IndexedDbHeldStore(dbName, options);
  }

  /** Open the store on a database (default `'ambi-web'`); rejects if the database cannot be opened. */
  static async open(dbName = DEFAULT_DATABASE_NAME, options: OpenDatabaseOptions = {}): Promise<IndexedDbConversationStore> {
    await openAmbiDatabase(dbName, options);
    return new IndexedDbConversationStore(dbName, options);
  }

  /** The messages of a conversation in order (empty if it does not exist); rejects `storage_corrupt` if its rows are not intact. */
  async load(id: string): Promise<Message[]> {
    const action = `load conversation "${String(id)}"`;
    checkConversationId(id, action);
    return storageOperation(action, async () => {
      const db = await this.#connectionFor(id, action);
      const rows = await transact(db, ['messages'], 'readonly', (tx) => tx.objectStore('messages').getAll(tail(id)));
      const messages = intactMessages(id, rows, action);
      noteConversationUse(this.dbName, id, lifeOf(db));
      return messages;
    });
  }

  /**
   * The last `count` messages of a conversation, and its first one when they start past it, in
   * one transaction that reads only those rows; rejects `storage_corrupt` if they are not intact.
   */
  async loadTail(id: string, count: number): Promise<ConversationTail> {
    const action = `load the end of conversation "${String(id)}"`;
    checkConversationId(id, action);
    checkCount(count, action);
    return storageOperation(action, async () => {
      const db = await this.#connectionFor(id, action);
      const read = await transact(db, ['messages'], 'readonly', async (tx) => {
        const log = tx.objectStore('messages');
        const length = await storedExtent(log, id);
        const start = Math.max(0, length - count);
        const [rows, first] = await Promise.all([log.getAll(tail(id, start)), start > 0 ? log.get([id, 0]) : undefined]);
        return { rows, first, start, length };
      });
      const messages = intactTail(id, read.rows, read.start, read.length, read.first, action);
      noteConversationUse(this.dbName, id, lifeOf(db));
      return messages;
    });
  }

  /** Append messages after the stored ones and update the record, in one transaction: all of them land, or none. */
  async append(id: string, given: readonly Message[]): Promise<void> {
    const action = `append to conversation "${String(id)}"`;
    // Bytes kept as Blobs (a message made by hand may hold an ArrayBuffer or a base64 data: URL).
    const messages = Array.isArray(given) ? withBlobParts(given) : given;
    checkConversationId(id, action);
    checkMessages(messages, action);
    if (messages.length === 0) return;
    return storageOperation(action, async () => {
      const db = await this.#connectionFor(id, action);
      await transact(db, ['messages', 'conversations'], 'readwrite', async (tx) => {
        const log = tx.objectStore('messages');
        const conversations = tx.objectStore('conversations');
        const [record, next, open] = await Promise.all([conversations.get(id), storedExtent(log, id), openCalls(log, id, messages)]);
        checkAnswers(messages, open, action);
        // The rows say where the batch goes: a record whose length is short or missing never makes it overwrite one.
        // A message that cannot be cloned throws here; `transact` then aborts the earlier puts too.
        messages.forEach((message, i) => queue(log.put({ conversationId: id, seq: next + i, message })));
        queue(conversations.put(repairedRecord(id, record, next + messages.length, Date.now())));
      });
      noteConversationUse(this.dbName, id, lifeOf(db));
    });
  }

  /** Cut a conversation back to its first `length` messages, in one transaction. */
  async truncate(id: string, length: number): Promise<void> {
    const action = `truncate conversation "${String(id)}"`;
    checkConversationId(id, action);
    checkLength(length, action);
    return storageOperation(action, async () => {
      const db = await this.#connectionFor(id, action);
      await transact(db, ['messages', 'conversations'], 'readwrite', async (tx) => {
        const log = tx.objectStore('messages');
        const conversations = tx.objectStore('conversations');
        const [record, extent] = await Promise.all([conversations.get(id), storedExtent(log, id)]);
        if (extent <= length && (!record || record.length === extent)) return;
        queue(log.delete(tail(id, length)));
        // Counted after the delete (requests run in order): the record then matches the rows, even after a gap.
        queue(conversations.put(repairedRecord(id, record, await log.count(tail(id)), Date.now())));
      });
      noteConversationUse(this.dbName, id, lifeOf(db));
    });
  }

  /**
   * Every stored conversation's metadata, oldest first. Each record's `length` is written with its
   * messages in one transaction, so it is read as it is, never by counting messages; only a record
   * without a valid one (a legacy record) has its messages counted, in the same transaction.
   */
  async list(): Promise<ConversationInfo[]> {
    return storageOperation('list conversations', async () => {
      const records = await transact(await this.db(), ['conversations', 'messages'], 'readonly', async (tx) => {
        const all = await tx.objectStore('conversations').getAll();
        const uncounted = all.filter((record) => !isCount(record.length));
        const lengths = await Promise.all(uncounted.map((record) => tx.objectStore('messages').count(tail(record.id))));
        uncounted.forEach((record, i) => {
          record.length = lengths[i]!;
        });
        return all;
      });
      return checkedRecords(records, 'list conversations').sort(byCreation);
    });
  }

  /** Remove a conversation, all its messages, its calls' records, standing decisions and held values, in one transaction (also one whose database went away while in use). */
  async delete(id: string): Promise<void> {
    const action = `delete conversation "${String(id)}"`;
    checkConversationId(id, action);
    return storageOperation(action, async () => {
      await transact(await this.db(), ['messages', 'conversations', 'journal', 'standing', 'heldInfo', 'heldValues'], 'readwrite', async (tx) => {
        queue(tx.objectStore('messages').delete(tail(id)));
        queue(tx.objectStore('conversations').delete(id));
        for (const key of await tx.objectStore('journal').index('conversation').getAllKeys(id)) queue(tx.objectStore('journal').delete(key));
        queue(tx.objectStore('standing').delete(ofConversation(id)));
        queue(tx.objectStore('heldInfo').delete(ofConversation(id)));
        queue(tx.objectStore('heldValues').delete(ofConversation(id)));
      });
      forgetConversationUse(this.dbName, id);
    });
  }

  /** The connection for an operation on a conversation, refused if the database went away while it was in use. */
  async #connectionFor(id: string, action: string): Promise<AmbiDatabase> {
    refuseLostConversation(this.dbName, id, action);
    const db = await this.db();
    // Opening may be what revealed the loss (a database deleted while no connection was open).
    refuseLostConversation(this.dbName, id, action);
    return db;
  }
}
