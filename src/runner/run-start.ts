import type { Message, ToolResult } from '../core/types.js';
import type { RunCall } from '../call/types.js';
import type { Continuation, History, RunStart } from './extension.js';
import type { RunSetup } from './run-setup.js';

/**
 * How a run starts, as its extensions make it in `open` (see RunStart): the history read once, by
 * the reader an extension chose or else whole (a leaf's snapshot, the stored conversation, or
 * nothing), and what the extensions add.
 */
export class Start implements RunStart {
  readonly results: Array<{ call: RunCall; result: ToolResult }> = [];
  readonly messages: Message[] = [];
  continues?: Continuation;
  #reader: () => Promise<History>;
  #read: Promise<History> | undefined;

  constructor(setup: RunSetup) {
    this.#reader = () => wholeHistory(setup);
  }

  history(): Promise<History> {
    this.#read ??= this.#reader();
    return this.#read;
  }

  readWith(reader: () => Promise<History>): void {
    if (!this.#read) this.#reader = reader;
  }
}

/** What the run starts from when no extension reads it otherwise: a leaf's snapshot, the stored conversation, or nothing. */
async function wholeHistory(setup: RunSetup): Promise<History> {
  if (setup.history) return { messages: setup.history, length: setup.history.length, skipped: 0 };
  const conversation = setup.options.conversation;
  if (conversation === undefined) return { messages: [], length: 0, skipped: 0 };
  // The whole conversation is sent: read it without a copy where the store can share it frozen.
  const store = setup.agent.conversations;
  const messages = store.loadFrozen ? await store.loadFrozen(conversation) : await store.load(conversation);
  return { messages, length: messages.length, skipped: 0 };
}
