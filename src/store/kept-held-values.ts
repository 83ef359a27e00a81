import type { HeldEntry, HeldInfo, HeldRecord, HeldValueStore } from './held-types.js';
import { checkEntry, heldInfo, seqOf } from './held-rules.js';
import { checkConversationId } from './conversation-rules.js';

/** What a MemoryHeldStore keeps, and the rules it keeps it by (loaded with the store's first call, see first-call.ts): same rules as IndexedDB. */
export class KeptHeldValues implements HeldValueStore {
  /**
   * By conversation: what is known of each value, in id order (`$N` at N - 1), and the value as
   * its JSON (the checks wrote it anyway; a string needs no copy, and each read parses a new value).
   */
  readonly #held = new Map<string, Array<{ info: HeldInfo; json: string; parts?: HeldRecord['parts'] }>>();

  async hold(conversation: string, entry: HeldEntry): Promise<HeldInfo> {
    const action = `hold a value in conversation "${String(conversation)}"`;
    checkConversationId(conversation, action);
    const json = checkEntry(entry, action);
    let records = this.#held.get(conversation);
    if (!records) this.#held.set(conversation, (records = []));
    const info = heldInfo(conversation, records.length + 1, entry, json.length, Date.now());
    records.push({ info: Object.freeze(info), json, ...(entry.parts && entry.parts.length > 0 ? { parts: [...entry.parts] } : {}) });
    return { ...info };
  }

  async get(conversation: string, id: string): Promise<HeldRecord | undefined> {
    checkConversationId(conversation, `read a held value of conversation "${String(conversation)}"`);
    const seq = seqOf(id);
    const found = seq === undefined ? undefined : this.#held.get(conversation)?.[seq - 1];
    return found && { ...found.info, value: JSON.parse(found.json) as HeldRecord['value'], ...(found.parts ? { parts: [...found.parts] } : {}) };
  }

  async list(conversation: string): Promise<HeldInfo[]> {
    checkConversationId(conversation, `list the held values of conversation "${String(conversation)}"`);
    return (this.#held.get(conversation) ?? []).map(({ info }) => ({ ...info }));
  }
}
