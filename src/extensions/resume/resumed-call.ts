import type { ToolCall, ToolResult } from '../../core/types.js';
import { toolFailure } from '../../call/result.js';
import type { Recorded } from '../../call/types.js';
import { toolIdentity } from '../../tools/identity.js';
import type { Tool } from '../../tools/types.js';
import type { CallRecord } from './records.js';

/**
 * What a run that continues an interrupted one (a resume) does with a call the interrupted reply
 * left without a result, from its record: a recorded result is used; a call that may have started
 * (`started`, or nobody can tell for a tool that is not idempotent) is not run again
 * (`outcome_unknown`; `leaf_interrupted` for a leaf); any other runs now, with what its record
 * says: the place it was proposed for, the decision taken on it (for the tool as it is now), or
 * that a person waited and is asked again, whatever the tool's rule says now.
 */
export function continuedCall(call: ToolCall, tool: Tool | undefined, record: CallRecord): { result: ToolResult } | { recorded?: Recorded } {
  if (!tool) return {}; // an unknown tool: the pipeline says so
  if (record?.result) return { result: record.result };
  if (record?.state === 'started') return { result: cutOff(call, 'after it started') };
  if (record === undefined) return tool.idempotent ? {} : { result: cutOff(call, 'and whether it started is not known') };
  if (record === null) return {}; // never started: the journal has every journalled call that did
  const target = record.target ? { target: record.target } : {};
  const { decision } = record;
  // A decision on another version of the tool decides nothing: the person is asked again.
  if (decision && record.tool === toolIdentity(tool)) {
    const { approved, reason, arguments: edited } = decision;
    return { recorded: { ...target, decision: { approved, ...(reason ? { reason } : {}), ...(edited !== undefined ? { arguments: edited } : {}) } } };
  }
  return { recorded: { ...target, asked: true } };
}

/**
 * The result for a call a previous run left without one, when a new run starts on the
 * conversation instead of resuming it: the model is told what became of it. A recorded result
 * is used: the tool's own, journalled before the result stage, so the run passes it through that
 * stage's hooks before the model reads it (an untrusted tool's is marked, a quarantined tool's
 * read in quarantine: see RunStart.results). A call is reported as not run only when its record
 * proves it never started (a person was asked and it did not start, or a journalled call with no
 * record); any other is never run again, and the model is told its outcome is unknown, so it
 * checks before repeating it.
 */
export function repairedResult(call: ToolCall, tool: Tool | undefined, record: CallRecord): ToolResult {
  if (record?.result) return record.result;
  if (record?.state === 'started') return cutOff(call, 'after it started');
  if (record || (record === null && tool !== undefined && !tool.idempotent)) {
    return toolFailure(call, 'aborted', `The call to "${call.name}" did not run: the run was interrupted before it started.`, 0, 0);
  }
  return cutOff(call, 'and whether it started is not known');
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
