import type { Message } from '../core/types.js';
import type { ConversationInfo, ConversationStore, ConversationTail } from './conversation-store.js';
import { FirstCallLoad } from './first-call.js';
import { MemoryHeldStore } from './memory-held-store.js';
import { MemoryToolCallJournal } from './memory-tool-call-journal.js';

export type { ConversationStore, ConversationTail } from './conversation-store.js';

/**
 * Conversations in memory, for tests, Node and pages that need no persistence; same rules and
 * errors as IndexedDB. Messages are kept as frozen copies: `load` and `loadTail` copy them again
 * for a caller that may change them, `loadFrozen` hands them out as they are. What it keeps and its
 * rules load with its first call (an agent's default store that no run touches costs nothing).
 */
export class MemoryConversationStore implements ConversationStore {
  /** The record of these conversations' calls (asked, decided, started, done) and standing decisions, kept as long as the store (a second runner on it stands for a reload). */
  readonly journal: MemoryToolCallJournal = new MemoryToolCallJournal();
  /** The held values of these conversations (`untrusted: 'hold'`), kept as long as the store. */
  readonly held: MemoryHeldStore = new MemoryHeldStore();
  readonly #kept = new FirstCallLoad(async () => new (await import('./kept-conversations.js')).KeptConversations(this.journal));

  /** A copy of a conversation's messages in order (empty if it does not exist). */
  load(id: string): Promise<Message[]> {
    return this.#kept.call((kept) => kept.load(id));
  }

  /** The messages as stored, frozen, in a new array (empty if it does not exist): nothing is copied. */
  loadFrozen(id: string): Promise<readonly Message[]> {
    return this.#kept.call((kept) => kept.loadFrozen(id));
  }

  /** Copies of the last `count` messages (all of them when it is shorter), and of its first message when they start past it. */
  loadTail(id: string, count: number): Promise<ConversationTail> {
    return this.#kept.call((kept) => kept.loadTail(id, count));
  }

  /** Append copies of messages, all or none; refused if any is not a message, answers no call, or cannot be cloned. */
  append(id: string, messages: readonly Message[]): Promise<void> {
    return this.#kept.call((kept) => kept.append(id, messages));
  }

  /** Cut a conversation back to its first `length` messages. */
  truncate(id: string, length: number): Promise<void> {
    return this.#kept.call((kept) => kept.truncate(id, length));
  }

  /** Every conversation's metadata, oldest first, as IndexedDbConversationStore lists them; `length` is its number of messages. */
  list(): Promise<ConversationInfo[]> {
    return this.#kept.call((kept) => kept.list());
  }

  /** Remove a conversation, its messages, its calls' records and standing decisions. */
  delete(id: string): Promise<void> {
    return this.#kept.call((kept) => kept.delete(id));
  }
}
