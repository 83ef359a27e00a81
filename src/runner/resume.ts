import type { JournalEntry, ToolCallJournal } from '../store/types.js';
import { toolFailure } from '../tools/tool-failure.js';
import type { ToolCall, ToolResult } from '../core/types.js';
import type { Message, ToolMessage } from '../core/types.js';
import { toolMessage } from './tool-message.js';

/**
 * Results for the calls a previous run left without one (the page reloaded mid-batch).
 * A journaled call's recorded outcome is used. A call is reported as not run only when
 * its tool is journaled (`journaled(name)`: non-idempotent tools are) and the journal
 * answered that it has no entry for it; any other dangling call (journaled `started`, an
 * idempotent tool's, no journal, a failed read, no key) is never run again: the model is
 * told its outcome is unknown, so it checks before repeating a call that may have had effects.
 */
export async function repairDanglingCalls(
  history: readonly Message[],
  journal: ToolCallJournal | undefined,
  journaled: (toolName: string) => boolean,
  maxChars: number,
): Promise<ToolMessage[]> {
  const at = history.findLastIndex((m) => m.role === 'assistant');
  const reply = history[at];
  if (reply?.role !== 'assistant' || !reply.toolCalls?.length) return [];
  const answered = new Set(history.slice(at + 1).flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])));
  const repaired: ToolMessage[] = [];
  for (const call of reply.toolCalls) {
    if (answered.has(call.id)) continue;
    const found = await journalEntry(journal, call.idempotencyKey);
    // No entry proves the call did not start only for a tool whose calls are journaled.
    const entry = found === null && !journaled(call.name) ? undefined : found;
    repaired.push(toolMessage(entry?.result ?? unfinished(call, entry), maxChars));
  }
  return repaired;
}

/** The result of a call with no recorded outcome: not run only if the journal said it has no entry. */
function unfinished(call: ToolCall, entry: JournalEntry | null | undefined): ToolResult {
  if (entry === null) return toolFailure(call, 'aborted', `The call to "${call.name}" did not run: the run was interrupted before it started.`, 0, 0);
  const when = entry ? 'after it started' : 'and whether it started is not known';
  return toolFailure(
    call,
    'outcome_unknown',
    `The call to "${call.name}" was cut off (the page closed or reloaded) ${when}; it may or may not have taken effect. Check before repeating it.`,
    0,
    0,
  );
}

/** The journal's entry for `key`; `null` when the journal answered it has none; undefined when nobody can tell. */
async function journalEntry(journal: ToolCallJournal | undefined, key: string | undefined): Promise<JournalEntry | null | undefined> {
  if (!journal || !key) return undefined;
  try {
    return (await journal.get(key)) ?? null;
  } catch {
    return undefined;
  }
}
