import type { ToolCall, ToolResult } from '../core/types.js';
import type { JournalEntry } from '../store/types.js';
import { toolFailure } from '../tools/tool-failure.js';
import type { RunScope } from '../tools/types.js';
import { dispatchCall, type DispatchContext } from './dispatch.js';

/**
 * The result of one call an interrupted run left without one, when that run is resumed.
 * A non-idempotent call is looked up in the journal first: its recorded result is used; one
 * that started and has no end is not run again (`outcome_unknown`, or `leaf_interrupted` for a
 * leaf); one the journal proves never started runs now (asking for approval first, or using
 * the decision recorded before the reload). An idempotent call simply runs (again).
 */
export async function resumeCall(call: ToolCall, ctx: DispatchContext, scope: RunScope): Promise<ToolResult> {
  const tool = ctx.tools.registry.get(call.name);
  const key = call.idempotencyKey;
  if (tool?.idempotent !== false) return dispatchCall({ ...call, idempotencyKey: key ?? crypto.randomUUID() }, ctx, scope);
  const entry = await journalEntry(ctx, key);
  // No entry where the journal has one for every started call: it never started.
  if (key && (entry === null || (entry === undefined && (await neverStarted(call, ctx))))) return dispatchCall({ ...call, idempotencyKey: key }, ctx, scope);
  const result = entry?.result ?? cutOff(call, entry ?? undefined);
  ctx.emit({ type: 'tool_finished', result });
  return result;
}

/** The journal's entry for `key`; `null` when the journal answered it has none; undefined when nobody can tell. */
async function journalEntry(ctx: DispatchContext, key: string | undefined): Promise<JournalEntry | null | undefined> {
  if (!ctx.journal || !key) return undefined;
  try {
    return (await ctx.journal.get(key)) ?? null;
  } catch {
    return undefined;
  }
}

/** Without a journal's word, a call still waiting for its decision when the page went away provably never started. */
async function neverStarted(call: ToolCall, ctx: DispatchContext): Promise<boolean> {
  if (!ctx.durable) return false;
  const record = await ctx.durable.store.get(ctx.durable.conversation, call.id).catch(() => undefined);
  return record !== undefined && record.decision?.approved !== true;
}

/** A call that may have started and has no recorded end: it is never run again. */
function cutOff(call: ToolCall, entry: JournalEntry | undefined): ToolResult {
  const when = entry ? 'after it started' : 'and whether it started is not known';
  if (call.name === 'spawn_leaf') {
    return toolFailure(
      call,
      'leaf_interrupted',
      `The leaf started by this call was cut off (the page closed or reloaded) ${when}; leaves are not resumed. Its own calls may have taken effect: check before starting it again.`,
      0,
      0,
    );
  }
  return toolFailure(
    call,
    'outcome_unknown',
    `The call to "${call.name}" was cut off (the page closed or reloaded) ${when}; it may or may not have taken effect. It was not run again: check before repeating it.`,
    0,
    0,
  );
}
