import type { ToolResult } from '../core/types.js';
import type { RegisteredTool } from '../tools/registry.js';
import { askPerson } from './approval.js';
import { ruleAsks } from './approval-rule.js';
import type { ApprovalDecision } from './approvals.js';
import { toolFailure } from './result.js';
import type { CallRun, CallVerdict, RunCall } from './types.js';
import { checkArguments } from './validate.js';

/** A call the policy stage lets through: maybe with the arguments a person edited it to, and whether a person approved it. */
export interface Admitted {
  call: RunCall;
  /** The checked arguments it runs with. */
  args: unknown;
  edited: boolean;
  approvedByPerson: boolean;
}

/**
 * Stage 4 of a call: whether it runs. The run's extensions speak first (`beforeCall`: resume
 * knows a resumed call's recorded result or earlier decision, untrusted content asks or refuses),
 * then the tool's own approval rule; a person decides a call that asks. Resolves with the call
 * admitted, or with the result of one that does not run (denied, refused, settled, or edited to
 * arguments that do not fit). Rejects only with the run's abort reason, as it waits.
 */
export function admit(
  asked: RunCall,
  entry: RegisteredTool,
  args: unknown,
  run: CallRun,
  durationMs: () => number,
): Admitted | ToolResult | Promise<Admitted | ToolResult> {
  const said = run.hooks.before(asked);
  // Nothing to wait for (no extension takes part in calls, the tool never asks): admitted now.
  if (said === undefined && !entry.tool.needsApproval) return { call: asked, args, edited: false, approvedByPerson: false };
  return decide(asked, entry, args, run, durationMs, said);
}

async function decide(
  asked: RunCall,
  entry: RegisteredTool,
  args: unknown,
  run: CallRun,
  durationMs: () => number,
  said: CallVerdict | undefined | Promise<CallVerdict | undefined>,
): Promise<Admitted | ToolResult> {
  const { tool } = entry;
  const verdict: CallVerdict = (await said) ?? { kind: 'run' };
  if (verdict.kind === 'settled') return verdict.result;
  if (verdict.kind === 'refuse') return toolFailure(asked, verdict.code, verdict.message, 0, durationMs());
  let decision: ApprovalDecision;
  if (verdict.kind === 'decided') decision = verdict.decision;
  else if (verdict.kind === 'ask' || (await ruleAsks(tool, args, run.signal))) decision = await askPerson(asked, tool, asking(verdict), run);
  else return { call: asked, args, edited: false, approvedByPerson: false };

  if (!decision.approved) {
    const why = decision.reason ? `: ${decision.reason}` : '';
    return toolFailure(asked, 'denied', `The user denied this call to "${asked.name}"${why}`, 0, durationMs());
  }
  if (decision.refusedArguments !== undefined) return toolFailure(asked, 'invalid_arguments', decision.refusedArguments, 0, durationMs());
  if (decision.arguments === undefined) return { call: asked, args, edited: false, approvedByPerson: true };
  // Validated again, as the model's were: edited arguments that do not fit never reach the tool.
  const call = { ...asked, arguments: decision.arguments };
  const checked = await checkArguments(call.name, call.arguments, entry.validate);
  if (!checked.ok) return { ...toolFailure(call, checked.code ?? 'invalid_arguments', checked.message, 0, durationMs()), editedArguments: call.arguments };
  return { call, args: checked.value, edited: true, approvedByPerson: true };
}

/** The request to a person a verdict makes: its own, or, when the tool's rule asks, what a `run` verdict said of the call. */
function asking(verdict: Extract<CallVerdict, { kind: 'ask' | 'run' }>): Extract<CallVerdict, { kind: 'ask' }> {
  if (verdict.kind === 'ask') return verdict;
  return { kind: 'ask', ...(verdict.because ? { because: verdict.because } : {}), ...(verdict.standing ? { standing: verdict.standing } : {}) };
}
