import type { Message } from './messages.js';

/** Where conversations live between runs. Each method is atomic for its conversation. */
export interface ConversationStore {
  /** The messages of a conversation (empty if it does not exist). */
  load(id: string): Promise<Message[]>;
  /** Append messages in one step: all of them or none. */
  append(id: string, messages: readonly Message[]): Promise<void>;
  /** Cut a conversation back to its first `length` messages (rolls back a failed run). */
  truncate(id: string, length: number): Promise<void>;
}

/** Conversations in memory, for tests, Node and pages that need no persistence. */
export class MemoryConversationStore implements ConversationStore {
  readonly #conversations = new Map<string, Message[]>();

  async load(id: string): Promise<Message[]> {
    return structuredClone(this.#conversations.get(id) ?? []);
  }

  async append(id: string, messages: readonly Message[]): Promise<void> {
    const copy = structuredClone(messages);
    const stored = this.#conversations.get(id);
    // Appended in place: copying the whole conversation on each append made a long one quadratic.
    if (stored) stored.push(...copy);
    else this.#conversations.set(id, copy as Message[]);
  }

  async truncate(id: string, length: number): Promise<void> {
    const current = this.#conversations.get(id);
    if (current) this.#conversations.set(id, current.slice(0, length));
  }
}
