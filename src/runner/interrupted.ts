import type { AssistantMessage, Message, ToolCall } from '../core/types.js';
import type { ConversationStore } from '../store/memory-conversation-store.js';
import type { PendingApproval } from '../store/approval-types.js';

/** Where an interrupted run stopped: the calls of its last reply that have no result, and the person's message it answers. */
export interface InterruptedRun {
  /** Calls without a result, in call order (empty: the run stopped before the model's next turn). */
  calls: ToolCall[];
  /** Where the run's user message sits (trimming for a small context never drops it). */
  userAt: number;
  input: string;
}

/**
 * Read what the pending approvals of a conversation depend on: its end, back to its last reply
 * (a store that reads a conversation's end, `loadTail`, reads no more; another is read whole).
 */
export async function loadConversation(store: ConversationStore, conversation: string): Promise<Message[]> {
  if (!store.loadTail) return store.load(conversation);
  for (let count = 64; ; count *= 4) {
    const tail = await store.loadTail(conversation, count);
    if (tail.start === 0 || tail.messages.some((m) => m.role === 'assistant')) return tail.messages;
  }
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
  const calls = reply ? danglingCalls(history, at, reply) : [];
  if (last.role === 'assistant' && calls.length === 0) return undefined;
  const userAt = Math.max(
    0,
    history.findLastIndex((m) => m.role === 'user' && m.origin !== 'runtime'),
  );
  const user = history[userAt];
  return { calls, userAt, input: user?.role === 'user' ? user.content : '' };
}

function danglingCalls(history: readonly Message[], at: number, reply: AssistantMessage): ToolCall[] {
  const answered = new Set(history.slice(at + 1).flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  return (reply.toolCalls ?? []).filter((call) => !answered.has(call.id));
}

/** The approvals a resume would ask again: recorded requests, undecided, of calls that still have no result. */
export async function pendingApprovals(store: ConversationStore, conversation: string): Promise<PendingApproval[]> {
  const approvals = store.approvals;
  const interrupted = interruptedRun(await loadConversation(store, conversation));
  if (!approvals || !interrupted || interrupted.calls.length === 0) return [];
  const waiting = new Set(interrupted.calls.map((call) => call.id));
  const records = await approvals.list(conversation);
  return records
    .filter((record) => waiting.has(record.callId) && !record.decision)
    .map(({ callId, call, leafId, requestedAt }) => ({ callId, call, ...(leafId ? { leafId } : {}), requestedAt }));
}
