import type { AssistantMessage, Message, ToolCall } from '../core/types.js';
import { textOf } from '../parts/content-text.js';
import type { ConversationStore } from '../store/conversation-store.js';
import type { PendingApproval } from '../store/approval-types.js';

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

/** The positions, in its reply, of the calls that have no result. */
function danglingCalls(history: readonly Message[], at: number, reply: AssistantMessage): number[] {
  const answered = new Set(history.slice(at + 1).flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  return (reply.toolCalls ?? []).flatMap((call, i) => (answered.has(call.id) ? [] : [i]));
}

/** The approvals a resume would ask again: recorded requests, undecided, of calls that still have no result. */
export async function pendingApprovals(store: ConversationStore, conversation: string): Promise<PendingApproval[]> {
  const approvals = store.approvals;
  const interrupted = interruptedRun(await loadConversation(store, conversation));
  if (!approvals || !interrupted || interrupted.calls.length === 0) return [];
  // The call as the conversation holds it: the record only says that it waits, since when, and where it would act.
  const waiting = new Map(interrupted.calls.map((call) => [call.id, call]));
  const records = await approvals.list(conversation);
  // A call a program made (Code Mode) is keyed `<its run_code call's key>.<index>`: it waits with its program.
  const programs = interrupted.calls.flatMap((call) => (call.idempotencyKey ? [{ prefix: `${call.idempotencyKey}.`, call }] : []));
  return records.flatMap(({ callId, leafId, requestedAt, decision, call: asked }): PendingApproval[] => {
    if (decision) return [];
    const program = programs.find(({ prefix }) => asked.idempotencyKey?.startsWith(prefix));
    if (program) return [{ callId, call: asked, parentCallId: program.call.id, requestedAt }];
    const call = waiting.get(callId);
    if (!call) return [];
    return [{ callId, call: asked.target ? { ...call, target: asked.target } : call, ...(leafId ? { leafId } : {}), requestedAt }];
  });
}
