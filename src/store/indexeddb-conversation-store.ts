import type { ConversationStore } from '../runner/conversation-store.js';
import type { Message } from '../runner/messages.js';
import { openAmbiDatabase, DEFAULT_DATABASE_NAME, type OpenDatabaseOptions } from './database.js';
import { DatabaseStore } from './database-store.js';
import type { ConversationRecord } from './schema.js';
import { storageOperation } from './storage-failure.js';
import { queue, transact } from './transaction.js';
import { byCreation } from './by-creation.js';

/** What `list()` tells about a stored conversation. */
export type ConversationInfo = ConversationRecord;

/** Every message key of one conversation from `from` on: one range, in `seq` order. */
const tail = (id: string, from = 0) => IDBKeyRange.bound([id, from], [id, Infinity]);

/** Conversations in IndexedDB: each append, truncate and delete is one all-or-nothing transaction. */
export class IndexedDbConversationStore extends DatabaseStore implements ConversationStore {
  /** Open the store on a database (default `'ambi-web'`); rejects if the database cannot be opened. */
  static async open(dbName = DEFAULT_DATABASE_NAME, options: OpenDatabaseOptions = {}): Promise<IndexedDbConversationStore> {
    await openAmbiDatabase(dbName, options);
    return new IndexedDbConversationStore(dbName, options);
  }

  /** The messages of a conversation in order (empty if it does not exist). */
  async load(id: string): Promise<Message[]> {
    return storageOperation(`load conversation "${id}"`, async () => {
      const rows = await transact(await this.db(), ['messages'], 'readonly', (tx) =>
        tx.objectStore('messages').getAll(tail(id)),
      );
      return rows.map((row) => row.message);
    });
  }

  /** Append messages and update the metadata in one transaction: all of them land, or none. */
  async append(id: string, messages: readonly Message[]): Promise<void> {
    if (messages.length === 0) return;
    return storageOperation(`append to conversation "${id}"`, async () => {
      await transact(await this.db(), ['messages', 'conversations'], 'readwrite', async (tx) => {
        const conversations = tx.objectStore('conversations');
        const log = tx.objectStore('messages');
        const now = Date.now();
        const record = (await conversations.get(id)) ?? { id, length: 0, createdAt: now, updatedAt: now };
        // A message that cannot be cloned throws here; `transact` then aborts the earlier puts too.
        messages.forEach((message, i) => queue(log.put({ conversationId: id, seq: record.length + i, message })));
        queue(conversations.put({ ...record, length: record.length + messages.length, updatedAt: now }));
      });
    });
  }

  /** Cut a conversation back to its first `length` messages, in one transaction. */
  async truncate(id: string, length: number): Promise<void> {
    if (!Number.isInteger(length) || length < 0) {
      throw new RangeError(`truncate: length must be a non-negative integer, got ${length}`);
    }
    return storageOperation(`truncate conversation "${id}"`, async () => {
      await transact(await this.db(), ['messages', 'conversations'], 'readwrite', async (tx) => {
        const conversations = tx.objectStore('conversations');
        const record = await conversations.get(id);
        if (!record || record.length <= length) return;
        queue(tx.objectStore('messages').delete(tail(id, length)));
        queue(conversations.put({ ...record, length, updatedAt: Date.now() }));
      });
    });
  }

  /** Every stored conversation's metadata, oldest first. */
  async list(): Promise<ConversationInfo[]> {
    return storageOperation('list conversations', async () => {
      const records = await transact(await this.db(), ['conversations'], 'readonly', (tx) =>
        tx.objectStore('conversations').getAll(),
      );
      return records.sort(byCreation);
    });
  }

  /** Remove a conversation and all its messages, in one transaction. */
  async delete(id: string): Promise<void> {
    return storageOperation(`delete conversation "${id}"`, async () => {
      await transact(await this.db(), ['messages', 'conversations'], 'readwrite', async (tx) => {
        queue(tx.objectStore('messages').delete(tail(id)));
        queue(tx.objectStore('conversations').delete(id));
      });
    });
  }
}
