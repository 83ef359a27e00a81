import type { Message, ToolCall, ToolResult } from '../../core/types.js';
import { journalled } from '../../call/journal.js';
import { toolFailure } from '../../call/result.js';
import type { Tool } from '../../tools/types.js';
import type { CallRecords } from './records.js';
import { cutOff } from './resumed-call.js';

/**
 * The result for a call a previous run left without one, when a new run starts on the
 * conversation instead of resuming it: the model is told what became of it. A recorded result
 * is used: the tool's own, journalled before the result stage, so the run passes it through that
 * stage's hooks before the model reads it (an untrusted tool's is marked, a quarantined tool's
 * read in quarantine: see Opening.results). A call is reported as not run only when its records
 * prove it never started (a journalled call with no journal entry, or one still waiting for its
 * decision); any other is never run again, and the model is told its outcome is unknown, so it
 * checks before repeating it.
 */
export function repairedResult(call: ToolCall, tool: Tool | undefined, records: CallRecords): ToolResult {
  const { entry, approval, decided } = records;
  if (entry?.result) return entry.result;
  if (entry) return cutOff(call, 'after it started');
  const approved = decided?.approved === true;
  const waited = approval !== undefined && !approved;
  if (waited || (entry === null && tool !== undefined && journalled(tool, approved))) {
    return toolFailure(call, 'aborted', `The call to "${call.name}" did not run: the run was interrupted before it started.`, 0, 0);
  }
  return cutOff(call, 'and whether it started is not known');
}

/** The calls of the conversation's last reply that have no result, in call order. */
export function danglingCalls(history: readonly Message[]): ToolCall[] {
  const at = history.findLastIndex((m) => m.role === 'assistant');
  const reply = history[at];
  if (reply?.role !== 'assistant' || !reply.toolCalls?.length) return [];
  const answered = new Set(history.slice(at + 1).flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  return reply.toolCalls.filter((call) => !answered.has(call.id));
}
