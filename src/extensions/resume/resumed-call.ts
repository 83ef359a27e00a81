import type { ToolCall, ToolResult } from '../../core/types.js';
import { journalled } from '../../call/journal.js';
import { toolFailure } from '../../call/result.js';
import type { CallVerdict } from '../../call/types.js';
import type { Tool } from '../../tools/types.js';
import type { CallRecords } from './records.js';

/**
 * What a resumed run does with a call its interrupted run left without a result, from its
 * records. A call with a recorded result gets it; one that may have started (journalled
 * `started`, or nobody can tell) is not run again (`outcome_unknown`; `leaf_interrupted` for
 * a leaf), unless it noted what it left running (`handle`: it goes on with that). One that provably never started runs now: with the decision recorded for it, if the
 * tool is still the one the person decided on; asked again if it waited for a decision, or was
 * decided on another version of the tool, whatever the tool's policy says now. Either way it keeps
 * the target its approval record names (the page it was proposed for, see `Tool.target`).
 */
export function resumedCallVerdict(call: ToolCall, tool: Tool | undefined, records: CallRecords): CallVerdict | undefined {
  const { entry, approval, decided } = records;
  if (!tool) return undefined; // an unknown tool: the pipeline says so
  const approved = decided?.approved === true;
  // Neither journalled nor approved by a person: safe to run again, asked again if it was waiting.
  if (!journalled(tool, approved) && !approval) return undefined;
  if (entry?.result) return { kind: 'settled', result: entry.result };
  // It started and left something running that it can be followed on (a server's task, a question waiting for answers).
  if (entry?.handle) return { kind: 'decided', decision: { approved: true }, handle: entry.handle };
  if (entry) return { kind: 'settled', result: cutOff(call, 'after it started') };
  // `null`: the journal answered it never started. Undefined: nobody can tell, unless the call still
  // waited for its decision (a call runs only after its decision is recorded).
  const neverStarted = entry === null || (approval !== undefined && decided?.approved !== true);
  if (!journalled(tool, approved) || neverStarted) {
    // The place the call was proposed for (a tab's page) stays its place: recorded with its approval.
    const target = approval?.call.target ? { target: approval.call.target } : {};
    if (decided)
      return {
        kind: 'decided',
        decision: {
          approved: decided.approved,
          ...(decided.reason ? { reason: decided.reason } : {}),
          ...(decided.arguments !== undefined ? { arguments: decided.arguments } : {}),
        },
        ...target,
      };
    if (approval) return { kind: 'ask', ...target };
    return undefined;
  }
  return { kind: 'settled', result: cutOff(call, 'and whether it started is not known') };
}

/** The result of a call that may have started and has no recorded end: it is never run again. */
export function cutOff(call: Pick<ToolCall, 'id' | 'name'>, when: string): ToolResult {
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
