import type { Message } from '../../core/types.js';
import { promptLimit, tokensPerMessage, type ContextBudget } from './budget.js';
import type { ConversationStore } from '../../store/conversation-store.js';
import type { History } from '../../runner/extension.js';
import type { TokenCounter } from './budget.js';

/**
 * Messages read at first from a long conversation: as many as the last run on it needed, and a
 * few more for what it added; else as many as the budget holds at 16 tokens a message. One read
 * holds enough, usually: each read is a trip to the database, and every message read is cloned.
 */
function firstRead(store: ConversationStore, conversation: string, limit: number): number {
  const needed = lastReads.get(store)?.get(conversation);
  return needed !== undefined ? needed + 16 : Math.min(4096, Math.max(32, Math.ceil(limit / 16)));
}

/** How many of its last messages the latest run on a conversation kept, by store (a bounded number of conversations each). */
const lastReads = new WeakMap<ConversationStore, Map<string, number>>();

function remember(store: ConversationStore, conversation: string, needed: number): void {
  let reads = lastReads.get(store);
  if (!reads) lastReads.set(store, (reads = new Map()));
  reads.delete(conversation);
  if (reads.size >= 1000) reads.delete(reads.keys().next().value!);
  reads.set(conversation, needed);
}

/**
 * The stored conversation a run starts from. With a context budget and a store that reads a
 * conversation's end (`loadTail`), only as many of the last messages as could be sent are read
 * (plus the system prompt), and of those the shortest end that holds the budget's worth of tokens,
 * starting where a step starts (never on a tool message, whose call is before it). Trimming that
 * end for a request keeps exactly what trimming the whole conversation would (the run's own
 * messages only add to it), so a run costs the same however long the conversation is. Without
 * either, the whole conversation is read.
 */
export async function readHistory(
  store: ConversationStore,
  conversation: string,
  budgetOf: () => Promise<ContextBudget | undefined>,
  counter: TokenCounter,
  signal: AbortSignal,
): Promise<History> {
  const budget = store.loadTail ? await budgetOf() : undefined;
  if (!budget || !store.loadTail) {
    const messages = await store.load(conversation);
    return { messages, length: messages.length, skipped: 0 };
  }
  const limit = promptLimit(budget);
  const framing = tokensPerMessage(budget);
  for (let count = firstRead(store, conversation, limit); ; ) {
    const tail = await store.loadTail(conversation, count);
    if (tail.start === 0) return { messages: tail.messages, length: tail.length, skipped: 0 };
    const { from, tokens } = await budgetStart(counter, tail.messages, limit, framing, signal);
    if (from !== undefined) {
      const system = tail.first?.role === 'system' ? [tail.first] : [];
      remember(store, conversation, tail.messages.length - from);
      return { messages: [...system, ...tail.messages.slice(from)], length: tail.length, skipped: tail.start + from - system.length };
    }
    // Enough for the budget at the size these messages have, with a margin: one more read, usually.
    count = Math.max(count + 32, Math.ceil((count * limit * 1.25) / Math.max(tokens, 1)));
  }
}

/**
 * Where the shortest end of `messages` that holds `limit` tokens starts, moved back to where its
 * step starts (a tool message's call is before it); none when `messages` hold too few.
 */
async function budgetStart(counter: TokenCounter, messages: readonly Message[], limit: number, framing: number, signal: AbortSignal) {
  let tokens = 0;
  for (let at = messages.length - 1; at >= 0; at--) {
    const counted = counter.message(messages[at]!, signal);
    tokens += (typeof counted === 'number' ? counted : await counted) + framing;
    if (tokens < limit) continue;
    while (at > 0 && messages[at]!.role === 'tool') at--;
    return { from: messages[at]!.role === 'tool' ? undefined : at, tokens };
  }
  return { from: undefined, tokens };
}
