import { DatabaseStore } from './database-store.js';
import type { OpenDatabaseOptions } from './database.js';
import type { HeldEntry, HeldInfo, HeldRecord, HeldValueStore } from './held-types.js';
import { checkEntry, heldInfo, readHeldInfo, readHeldRecord, seqOf } from './held-rules.js';
import { checkConversationId } from './conversation-rules.js';
import { ofConversation } from './by-conversation.js';
import { storageOperation } from './storage-failure.js';
import { queue, transact } from './transaction.js';

/**
 * The held values of an IndexedDbConversationStore's conversations, in the same database
 * (`store.held`): what is known of each (`heldInfo`, small, read whole by a run) apart from the
 * value itself (`heldValues`, read only when a call or an answer names it). Both written in one
 * transaction; the next id is one past the conversation's last, so ids are never reused.
 */
export class IndexedDbHeldStore extends DatabaseStore implements HeldValueStore {
  constructor(dbName: string, options: OpenDatabaseOptions = {}) {
    super(dbName, options);
  }

  async hold(conversation: string, entry: HeldEntry): Promise<HeldInfo> {
    const action = `hold a value in conversation "${String(conversation)}"`;
    checkConversationId(conversation, action);
    const { length } = checkEntry(entry, action);
    return storageOperation(action, async () =>
      transact(await this.db(), ['heldInfo', 'heldValues'], 'readwrite', async (tx) => {
        const infos = tx.objectStore('heldInfo');
        const last = await infos.openCursor(ofConversation(conversation), 'prev');
        const seq = last ? readHeldInfo(last.value, action).seq + 1 : 1;
        const info = heldInfo(conversation, seq, entry, length, Date.now());
        queue(infos.put(info));
        // A value that cannot be cloned throws here; `transact` then aborts the record's put too.
        // Parts as they are: their bytes are Blobs, which IndexedDB keeps as such.
        const parts = entry.parts && entry.parts.length > 0 ? { parts: entry.parts } : {};
        queue(tx.objectStore('heldValues').put({ conversation, seq, value: entry.value, ...parts, untrusted: true }));
        return info;
      }),
    );
  }

  async get(conversation: string, id: string): Promise<HeldRecord | undefined> {
    const action = `read held value ${String(id)} of conversation "${String(conversation)}"`;
    checkConversationId(conversation, action);
    const seq = seqOf(id);
    if (seq === undefined) return undefined;
    return storageOperation(action, async () => {
      const [info, stored] = await transact(await this.db(), ['heldInfo', 'heldValues'], 'readonly', (tx) =>
        Promise.all([tx.objectStore('heldInfo').get([conversation, seq]), tx.objectStore('heldValues').get([conversation, seq])]),
      );
      if (info === undefined) return undefined;
      return readHeldRecord(info, stored?.value, action, stored?.parts);
    });
  }

  async list(conversation: string): Promise<HeldInfo[]> {
    const action = `list the held values of conversation "${String(conversation)}"`;
    checkConversationId(conversation, action);
    return storageOperation(action, async () => {
      const all = await transact(await this.db(), ['heldInfo'], 'readonly', (tx) => tx.objectStore('heldInfo').getAll(ofConversation(conversation)));
      return all.map((record) => readHeldInfo(record, action));
    });
  }
}
