import type { Message } from '../core/types.js';
import type { HeldValueStore } from './held-types.js';
import type { ToolCallJournal } from './types.js';

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
  /**
   * The messages of a conversation as stored, frozen (deeply): shared with the store and with
   * every other reader, so nothing is copied, and nobody can change them. What a run without a
   * context budget reads, since it sends the whole conversation. Optional: a store without it
   * is read with `load`.
   */
  loadFrozen?(id: string): Promise<readonly Message[]>;
  /**
   * Where the calls of these conversations are recorded, one record per call (asked, decided,
   * started, done), with the standing decisions: what a run on a stored conversation writes
   * (unless its agent has a journal of its own) and a resume reads.
   */
  readonly journal?: ToolCallJournal;
  /** Where the held values of these conversations live (`untrusted: 'hold'`): a run in hold mode on a stored conversation needs it. */
  readonly held?: HeldValueStore;
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

/** A stored conversation's metadata: its id, how many messages it holds, when it was made and last changed. */
export interface ConversationInfo {
  id: string;
  /** How many messages the conversation holds (also the next message's `seq`). */
  length: number;
  createdAt: number;
  updatedAt: number;
}
