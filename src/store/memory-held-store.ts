import type { HeldEntry, HeldInfo, HeldRecord, HeldValueStore } from './held-types.js';
import { checkEntry, heldInfo, seqOf } from './held-rules.js';
import { checkConversationId } from './conversation-rules.js';
import { toStorageError } from './storage-failure.js';

/** Held values in memory, next to a MemoryConversationStore's conversations (and a run's without one); same rules as IndexedDB. */
export class MemoryHeldStore implements HeldValueStore {
  /** By conversation: its records in id order (`$N` at N - 1), values as frozen copies. */
  readonly #held = new Map<string, HeldRecord[]>();

  async hold(conversation: string, entry: HeldEntry): Promise<HeldInfo> {
    const action = `hold a value in conversation "${String(conversation)}"`;
    checkConversationId(conversation, action);
    const length = checkEntry(entry, action);
    let value: HeldRecord['value'];
    try {
      value = structuredClone(entry.value);
    } catch (error) {
      throw toStorageError(error, action);
    }
    let records = this.#held.get(conversation);
    if (!records) this.#held.set(conversation, (records = []));
    const info = heldInfo(conversation, records.length + 1, entry, length, Date.now());
    records.push(Object.freeze({ ...info, value }));
    return { ...info };
  }

  async get(conversation: string, id: string): Promise<HeldRecord | undefined> {
    checkConversationId(conversation, `read a held value of conversation "${String(conversation)}"`);
    const seq = seqOf(id);
    const found = seq === undefined ? undefined : this.#held.get(conversation)?.[seq - 1];
    return found && { ...found, value: structuredClone(found.value) };
  }

  async list(conversation: string): Promise<HeldInfo[]> {
    checkConversationId(conversation, `list the held values of conversation "${String(conversation)}"`);
    return (this.#held.get(conversation) ?? []).map(({ value: _, ...info }) => info);
  }
}
