import type { ToolResult } from '../core/types.js';
import { isAmbiError } from '../errors/ambi-error.js';
import { errorMessage } from '../errors/error-message.js';
import type { RegisteredTool } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import { untilAborted } from '../util/abort-source.js';
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
 * then the tool's own approval rule; a person decides a call that asks. A tool that names where
 * its calls act (`target`: a tab's page) names it before anyone is asked, and the call carries it
 * to its start (where the tool runs it there or not at all). Resolves with the call
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
  // Nothing to wait for (no extension takes part in calls, the tool never asks nor names a target): admitted now.
  if (said === undefined && !entry.tool.needsApproval && !entry.tool.target) return { call: asked, args, edited: false, approvedByPerson: false };
  return decide(asked, entry, args, run, durationMs, said);
}

async function decide(
  proposed: RunCall,
  entry: RegisteredTool,
  args: unknown,
  run: CallRun,
  durationMs: () => number,
  said: CallVerdict | undefined | Promise<CallVerdict | undefined>,
): Promise<Admitted | ToolResult> {
  const { tool } = entry;
  const verdict: CallVerdict = (await said) ?? { kind: 'run' };
  if (verdict.kind === 'settled') return verdict.result;
  // A call that started before a reload and left something running goes on with it (see CallVerdict).
  const asked = verdict.kind === 'decided' && verdict.handle ? { ...proposed, handle: verdict.handle } : proposed;
  if (verdict.kind === 'refuse') return toolFailure(asked, verdict.code, verdict.message, 0, durationMs());
  // Where the call acts is fixed now, before anyone is asked: it runs there, or not at all.
  const placed = tool.target ? await targeted(asked, tool, args, verdict, run.signal) : asked;
  if ('ok' in placed) return { ...placed, durationMs: durationMs() };
  return admitOrAsk(placed, entry, args, run, durationMs, verdict);
}

/** The rest of the policy stage, for a call whose target (if its tool has one) is set: a decision given before, the tool's rule, a person. */
async function admitOrAsk(
  asked: RunCall,
  entry: RegisteredTool,
  args: unknown,
  run: CallRun,
  durationMs: () => number,
  verdict: Exclude<CallVerdict, { kind: 'settled' | 'refuse' }>,
): Promise<Admitted | ToolResult> {
  const { tool } = entry;
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

/**
 * The call with the place it acts on: the one recorded with it (a resumed call), else what the
 * tool's `target` names now. A target that cannot be named (a tab that is gone) ends the call
 * unstarted, with the error's code. Rejects only with the run's abort reason.
 */
async function targeted(call: RunCall, tool: Tool, args: unknown, verdict: CallVerdict, signal: AbortSignal): Promise<RunCall | ToolResult> {
  const recorded = verdict.kind === 'ask' || verdict.kind === 'decided' ? verdict.target : undefined;
  if (recorded) return { ...call, target: recorded };
  try {
    const target = await untilAborted(Promise.resolve(tool.target!(args, { signal })), signal);
    return { ...call, target };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    const code = isAmbiError(error) ? error.code : 'crashed';
    return toolFailure(call, code, `Tool "${call.name}" was not run: where it would act could not be told (${errorMessage(error)})`, 0, 0);
  }
}

/** The request to a person a verdict makes: its own, or, when the tool's rule asks, what a `run` verdict said of the call. */
function asking(verdict: Extract<CallVerdict, { kind: 'ask' | 'run' }>): Extract<CallVerdict, { kind: 'ask' }> {
  if (verdict.kind === 'ask') return verdict;
  return { kind: 'ask', ...(verdict.because ? { because: verdict.because } : {}), ...(verdict.standing ? { standing: verdict.standing } : {}) };
}
