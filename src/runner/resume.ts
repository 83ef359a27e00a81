import type { ToolCallJournal } from '../store/types.js';
import type { ToolResult } from '../tools/types.js';
import type { Message, ToolMessage } from './messages.js';
import { toolMessage } from './tool-message.js';

/**
 * Results for the calls a previous run left without one (the page reloaded mid-batch).
 * A journaled call's recorded outcome is used; a call journaled `started` is never run
 * again: the model is told its outcome is unknown. A call never started is reported as not run.
 */
export async function repairDanglingCalls(history: readonly Message[], journal: ToolCallJournal | undefined, maxChars: number): Promise<ToolMessage[]> {
  const at = history.findLastIndex((m) => m.role === 'assistant');
  const reply = history[at];
  if (!reply || reply.role !== 'assistant' || !reply.toolCalls?.length) return [];
  const answered = new Set(history.slice(at + 1).flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  const repaired: ToolMessage[] = [];
  for (const call of reply.toolCalls) {
    if (answered.has(call.id)) continue;
    const entry = call.idempotencyKey ? await journal?.get(call.idempotencyKey).catch(() => undefined) : undefined;
    const failure = (code: string, message: string): ToolResult => ({ id: call.id, name: call.name, ok: false, error: { code, message }, attempts: 0, durationMs: 0 });
    const result =
      entry?.result ??
      (entry
        ? failure('outcome_unknown', `The call to "${call.name}" was cut off (the page closed or reloaded) after it started; it may or may not have taken effect. Check before repeating it.`)
        : failure('aborted', `The call to "${call.name}" did not run: the run was interrupted before it started.`));
    repaired.push(toolMessage(result, maxChars));
  }
  return repaired;
}
