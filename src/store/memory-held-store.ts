import type { HeldEntry, HeldInfo, HeldRecord, HeldValueStore } from './held-types.js';
import { FirstCallLoad } from './first-call.js';

/**
 * Held values in memory, next to a MemoryConversationStore's conversations (and a run's without
 * one); same rules as IndexedDB. What it keeps and its rules load with its first call.
 */
export class MemoryHeldStore implements HeldValueStore {
  readonly #kept = new FirstCallLoad(async () => new (await import('./kept-held-values.js')).KeptHeldValues());

  hold(conversation: string, entry: HeldEntry): Promise<HeldInfo> {
    return this.#kept.call((kept) => kept.hold(conversation, entry));
  }

  get(conversation: string, id: string): Promise<HeldRecord | undefined> {
    return this.#kept.call((kept) => kept.get(conversation, id));
  }

  list(conversation: string): Promise<HeldInfo[]> {
    return this.#kept.call((kept) => kept.list(conversation));
  }
}
