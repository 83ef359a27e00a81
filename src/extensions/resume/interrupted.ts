import type { AssistantMessage, Message, ToolCall } from '../../core/types.js';
import { textOf } from '../../parts/content-text.js';
import type { ConversationStore } from '../../store/conversation-store.js';

/** Where an interrupted run stopped: the calls of its last reply that have no result, and the person's message it answers. */
export interface InterruptedRun {
  /** Calls without a result, in call order (empty: the run stopped before the model's next turn). */
  calls: ToolCall[];
  /** Where each of `calls` sits in its reply, and how many calls the reply made: the reply's limit still holds. */
  positions: number[];
  replyCalls: number;
  /** Where the run's user message sits (trimming for a small context never drops it). */
  userAt: number;
  input: string;
}

/**
 * The run a conversation's end shows was interrupted: its last reply has calls without
 * results, or it ends with results or the person's message, which the model has not
 * answered. A conversation that ends with an answer (or a runtime note) has none.
 */
export function interruptedRun(history: readonly Message[]): InterruptedRun | undefined {
  const last = history.at(-1);
  if (!last || last.role === 'system' || (last.role === 'user' && last.origin === 'runtime')) return undefined;
  const at = history.findLastIndex((m) => m.role === 'assistant');
  const reply = history[at] as AssistantMessage | undefined;
  const positions = reply ? danglingCalls(history, at, reply) : [];
  if (last.role === 'assistant' && positions.length === 0) return undefined;
  const replyCalls = reply?.toolCalls ?? [];
  const userAt = Math.max(
    0,
    history.findLastIndex((m) => m.role === 'user' && m.origin !== 'runtime'),
  );
  const user = history[userAt];
  const input = user?.role === 'user' ? textOf(user.content) : '';
  return { calls: positions.map((i) => replyCalls[i]!), positions, replyCalls: replyCalls.length, userAt, input };
}

/** The positions, in the last reply of `history` (at `at`), of the calls that have no result. */
export function danglingCalls(history: readonly Message[], at: number, reply: AssistantMessage): number[] {
  const answered = new Set(history.slice(at + 1).flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  return (reply.toolCalls ?? []).flatMap((call, i) => (answered.has(call.id) ? [] : [i]));
}

/** The calls of the conversation's last reply that have no result, in call order (what a new run reports for them). */
export function unansweredCalls(history: readonly Message[]): ToolCall[] {
  const at = history.findLastIndex((m) => m.role === 'assistant');
  const reply = history[at];
  if (reply?.role !== 'assistant' || !reply.toolCalls?.length) return [];
  return danglingCalls(history, at, reply).map((i) => reply.toolCalls![i]!);
}

/**
 * Read what an interrupted run depends on: a conversation's end, back to its last reply (a store
 * that reads a conversation's end, `loadTail`, reads no more; another is read whole).
 */
export async function conversationEnd(store: ConversationStore, conversation: string): Promise<Message[]> {
  if (!store.loadTail) return store.load(conversation);
  for (let count = 64; ; count *= 4) {
    const tail = await store.loadTail(conversation, count);
    if (tail.start === 0 || tail.messages.some((m) => m.role === 'assistant')) return tail.messages;
  }
}
