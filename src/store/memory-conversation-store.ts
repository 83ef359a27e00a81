import { answerableCalls, checkAnswers, checkConversationId, checkCount, checkLength, checkMessages } from './conversation-rules.js';
import { toStorageError } from './storage-failure.js';
import type { Message } from '../core/types.js';
import type { ApprovalStore } from './approval-types.js';
import { MemoryApprovalsOnDemand } from './memory-approvals-on-demand.js';

/**
 * Where conversations live between runs. Each method is atomic for its conversation, and
 * every refusal is a coded StorageError: a batch that is not messages, or holds a tool
 * message that answers no call (`storage_invalid`), is not written at all.
 */
export interface ConversationStore {
  /** The messages of a conversation (empty if it does not exist). */
  load(id: string): Promise<Message[]>;
  /** Append messages in one step: all of them or none. */
  append(id: string, messages: readonly Message[]): Promise<void>;
  /** Cut a conversation back to its first `length` messages (rolls back a failed run). */
  truncate(id: string, length: number): Promise<void>;
  /**
   * The last `count` messages of a conversation and where they start: what a run with a context
   * budget reads instead of the whole conversation. Optional: a store without it is read whole.
   */
  loadTail?(id: string, count: number): Promise<ConversationTail>;
  /** Where the approvals of these conversations live, if they persist with them (a resumed run asks again what waited). */
  readonly approvals?: ApprovalStore;
}

/** The end of a conversation, as `loadTail` reads it. */
export interface ConversationTail {
  /** How many messages the conversation holds. */
  length: number;
  /** Where `messages` start in it. */
  start: number;
  /** The messages from `start` to the end. */
  messages: Message[];
  /** The conversation's first message (its system prompt, where it has one) when `start` is past it. */
  first?: Message;
}

/** Conversations in memory, for tests, Node and pages that need no persistence; same rules and errors as IndexedDB. */
export class MemoryConversationStore implements ConversationStore {
  readonly #conversations = new Map<string, Message[]>();
  /** The approvals of these conversations, kept as long as the store (a second runner on it stands for a reload). */
  readonly approvals: MemoryApprovalsOnDemand = new MemoryApprovalsOnDemand();

  /** A copy of a conversation's messages in order (empty if it does not exist). */
  async load(id: string): Promise<Message[]> {
    checkConversationId(id, 'load a conversation');
    return structuredClone(this.#conversations.get(id) ?? []);
  }

  /** Copies of the last `count` messages (all of them when it is shorter), and of its first message when they start past it. */
  async loadTail(id: string, count: number): Promise<ConversationTail> {
    const action = `load the end of conversation "${String(id)}"`;
    checkConversationId(id, action);
    checkCount(count, action);
    const stored = this.#conversations.get(id) ?? [];
    const start = Math.max(0, stored.length - count);
    const tail: ConversationTail = { length: stored.length, start, messages: structuredClone(stored.slice(start)) };
    if (start > 0) tail.first = structuredClone(stored[0]!);
    return tail;
  }

  /** Append copies of messages, all or none; refused if any is not a message, answers no call, or cannot be cloned. */
  async append(id: string, messages: readonly Message[]): Promise<void> {
    const action = `append to conversation "${String(id)}"`;
    checkConversationId(id, action);
    checkMessages(messages, action);
    const stored = this.#conversations.get(id);
    checkAnswers(messages, answerableCalls(stored ?? []), action);
    if (messages.length === 0) return;
    const copy = cloned(messages, action);
    // Appended in place: copying the whole conversation on each append made a long one quadratic.
    if (stored) stored.push(...copy);
    else this.#conversations.set(id, copy);
  }

  /** Cut a conversation back to its first `length` messages. */
  async truncate(id: string, length: number): Promise<void> {
    const action = `truncate conversation "${String(id)}"`;
    checkConversationId(id, action);
    checkLength(length, action);
    this.#conversations.get(id)?.splice(length);
  }
}

// Clone as IndexedDB would, refusing the same values with the same coded error.
function cloned(messages: readonly Message[], action: string): Message[] {
  try {
    return structuredClone(messages) as Message[];
  } catch (error) {
    throw toStorageError(error, action);
  }
}
