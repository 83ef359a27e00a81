import { withBlobParts } from './blob-parts.js';
import { answerableCalls, checkAnswers, checkConversationId, checkCount, checkLength, checkMessages } from './conversation-rules.js';
import { byCreation } from './by-creation.js';
import { toStorageError } from './storage-failure.js';
import type { Message } from '../core/types.js';
import type { ConversationInfo, ConversationStore, ConversationTail } from './conversation-store.js';

/** A conversation as the memory store keeps it: its frozen messages and its times. */
interface Kept {
  messages: Message[];
  createdAt: number;
  updatedAt: number;
}

/**
 * What a MemoryConversationStore keeps, and the rules it keeps it by (loaded with the store's first
 * call, see first-call.ts): same rules and errors as IndexedDB. Messages are kept as frozen
 * copies: `load` and `loadTail` copy them again for a caller that may change them, `loadFrozen`
 * hands them out as they are.
 */
export class KeptConversations implements ConversationStore {
  readonly #conversations = new Map<string, Kept>();
  /** The store's record of calls: a deleted conversation's records go with it. */
  readonly #journal: { clear(conversation: string): void };

  constructor(journal: { clear(conversation: string): void }) {
    this.#journal = journal;
  }

  /** A copy of a conversation's messages in order (empty if it does not exist). */
  async load(id: string): Promise<Message[]> {
    checkConversationId(id, 'load a conversation');
    return structuredClone(this.#conversations.get(id)?.messages ?? []);
  }

  /** The messages as stored, frozen, in a new array (empty if it does not exist): nothing is copied. */
  async loadFrozen(id: string): Promise<readonly Message[]> {
    checkConversationId(id, 'load a conversation');
    return [...(this.#conversations.get(id)?.messages ?? [])];
  }

  /** Copies of the last `count` messages (all of them when it is shorter), and of its first message when they start past it. */
  async loadTail(id: string, count: number): Promise<ConversationTail> {
    const action = `load the end of conversation "${String(id)}"`;
    checkConversationId(id, action);
    checkCount(count, action);
    const stored = this.#conversations.get(id)?.messages ?? [];
    const start = Math.max(0, stored.length - count);
    const tail: ConversationTail = { length: stored.length, start, messages: structuredClone(stored.slice(start)) };
    if (start > 0) tail.first = structuredClone(stored[0]!);
    return tail;
  }

  /** Append copies of messages, all or none; refused if any is not a message, answers no call, or cannot be cloned. */
  async append(id: string, given: readonly Message[]): Promise<void> {
    const action = `append to conversation "${String(id)}"`;
    // Bytes kept as Blobs (a message made by hand may hold an ArrayBuffer or a base64 data: URL).
    const messages = Array.isArray(given) ? withBlobParts(given) : given;
    checkConversationId(id, action);
    checkMessages(messages, action);
    const stored = this.#conversations.get(id);
    checkAnswers(messages, answerableCalls(stored?.messages ?? []), action);
    if (messages.length === 0) return;
    const copy = cloned(messages, action);
    const now = Date.now();
    // Appended in place: copying the whole conversation on each append made a long one quadratic.
    if (stored) {
      stored.messages.push(...copy);
      stored.updatedAt = now;
    } else this.#conversations.set(id, { messages: copy, createdAt: now, updatedAt: now });
  }

  /** Cut a conversation back to its first `length` messages. */
  async truncate(id: string, length: number): Promise<void> {
    const action = `truncate conversation "${String(id)}"`;
    checkConversationId(id, action);
    checkLength(length, action);
    const stored = this.#conversations.get(id);
    if (!stored || stored.messages.length <= length) return;
    stored.messages.splice(length);
    stored.updatedAt = Date.now();
  }

  /** Every conversation's metadata, oldest first, as IndexedDbConversationStore lists them; `length` is its number of messages. */
  async list(): Promise<ConversationInfo[]> {
    const out: ConversationInfo[] = [];
    for (const [id, { messages, createdAt, updatedAt }] of this.#conversations) out.push({ id, length: messages.length, createdAt, updatedAt });
    return out.sort(byCreation);
  }

  /** Remove a conversation, its messages, its calls' records and standing decisions. */
  async delete(id: string): Promise<void> {
    checkConversationId(id, `delete conversation "${String(id)}"`);
    this.#conversations.delete(id);
    this.#journal.clear(id);
  }
}

// Clone as IndexedDB would, refusing the same values with the same coded error; then freeze the
// copy, which `loadFrozen` shares with every reader.
function cloned(messages: readonly Message[], action: string): Message[] {
  let copy: Message[];
  try {
    copy = structuredClone(messages) as Message[];
  } catch (error) {
    throw toStorageError(error, action);
  }
  for (const message of copy) deepFreeze(message);
  return copy;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
}
