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
import type { CallRun, CallVerdict, ExecuteOptions, Recorded, RunCall } from './types.js';
import { checkArguments } from './validate.js';

/** A call the policy stage lets through: maybe with the arguments a person edited it to, and whether a person approved it. */
export interface Admitted {
  call: RunCall;
  /** The checked arguments it runs with. */
  args: unknown;
  edited: boolean;
  approvedByPerson: boolean;
}

/** What the extensions said of the call in the screen stage, as the policy stage weighs it (a refusal never gets here). */
export type Said = Extract<CallVerdict, { kind: 'run' | 'ask' }>;

/**
 * Stage 4 of a call: whether it runs. A tool that names where its calls act (`target`: a tab's
 * page) names it first, before anyone is asked, and the call carries it to its start (where the
 * tool runs it there or not at all); a call resumed after an interruption keeps the place it was
 * proposed for and the decision taken on it (`recorded`). Then a person decides a call that asks:
 * because an extension said so in the screen stage (untrusted content), because it was asked
 * before and never answered, or by the tool's own rule. Resolves with the call admitted, or with
 * the result of one that does not run (denied, the target's failure, or edited to arguments that
 * do not fit). Rejects only with the run's abort reason, as it waits.
 */
export function admit(
  asked: RunCall,
  entry: RegisteredTool,
  args: unknown,
  run: CallRun,
  said: Said | undefined,
  recorded: Recorded | undefined,
  durationMs: () => number,
): Admitted | ToolResult | Promise<Admitted | ToolResult> {
  // Nothing to wait for (no extension asks, the tool never asks nor names a target, nothing recorded): admitted now.
  if (said === undefined && recorded === undefined && !entry.tool.needsApproval && !entry.tool.target) {
    return { call: asked, args, edited: false, approvedByPerson: false };
  }
  return decide(asked, entry, args, run, said ?? { kind: 'run' }, recorded ?? {}, durationMs);
}

async function decide(
  asked: RunCall,
  entry: RegisteredTool,
  args: unknown,
  run: CallRun,
  said: Said,
  recorded: Recorded,
  durationMs: () => number,
): Promise<Admitted | ToolResult> {
  const { tool } = entry;
  // Where the call acts is fixed now, before anyone is asked: it runs there, or not at all.
  const placed = tool.target ? await targeted(asked, tool, args, recorded, run.signal) : asked;
  if ('ok' in placed) return { ...placed, durationMs: durationMs() };
  let decision: ApprovalDecision;
  if (recorded.decision) decision = recorded.decision;
  else if (said.kind === 'ask' || recorded.asked || (await ruleAsks(tool, args, run.signal))) decision = await askPerson(placed, tool, asking(said), run);
  else return { call: placed, args, edited: false, approvedByPerson: false };

  if (!decision.approved) {
    const why = decision.reason ? `: ${decision.reason}` : '';
    return toolFailure(placed, 'denied', `The user denied this call to "${placed.name}"${why}`, 0, durationMs());
  }
  if (decision.refusedArguments !== undefined) return toolFailure(placed, 'invalid_arguments', decision.refusedArguments, 0, durationMs());
  if (decision.arguments === undefined) return { call: placed, args, edited: false, approvedByPerson: true };
  // Validated again, as the model's were: edited arguments that do not fit never reach the tool.
  const call = { ...placed, arguments: decision.arguments };
  const checked = await checkArguments(call.name, call.arguments, entry.validate);
  if (!checked.ok) return { ...toolFailure(call, checked.code ?? 'invalid_arguments', checked.message, 0, durationMs()), editedArguments: call.arguments };
  return { call, args: checked.value, edited: true, approvedByPerson: true };
}

/**
 * The call with the place it acts on: the one recorded with it (a resumed call), else what the
 * tool's `target` names now. A target that cannot be named (a tab that is gone) ends the call
 * unstarted, with the error's code. Rejects only with the run's abort reason.
 */
async function targeted(call: RunCall, tool: Tool, args: unknown, recorded: Recorded, signal: AbortSignal): Promise<RunCall | ToolResult> {
  if (recorded.target) return { ...call, target: recorded.target };
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
function asking(said: Said): Extract<CallVerdict, { kind: 'ask' }> {
  if (said.kind === 'ask') return said;
  return { kind: 'ask', ...(said.because ? { because: said.because } : {}), ...(said.standing ? { standing: said.standing } : {}) };
}

/**
 * Stage 4 of a call outside a run that was given `approve` (a tool offered over WebMCP): the
 * tool's rule, and where it asks, `approve` on the checked arguments. Resolves with undefined to go
 * on, or the result of a call that does not run: denied (no, a throw, no way to ask), or aborted
 * while the answer was awaited.
 */
export async function approvedOutside(
  call: RunCall,
  tool: Tool,
  args: unknown,
  approve: NonNullable<ExecuteOptions['approve']>,
  signal: AbortSignal,
  durationMs: () => number,
): Promise<ToolResult | undefined> {
  const denied = (message: string) => toolFailure(call, 'denied', message, 0, durationMs());
  try {
    if (!(await ruleAsks(tool, args, signal))) return undefined;
  } catch {
    return toolFailure(call, 'aborted', `The call to "${call.name}" was given up while waiting for approval`, 0, durationMs());
  }
  let decision: unknown;
  try {
    decision = await untilAborted(Promise.resolve(approve({ name: call.name, arguments: args })), signal);
  } catch (error) {
    if (signal.aborted) return toolFailure(call, 'aborted', `The call to "${call.name}" was given up while waiting for approval`, 0, durationMs());
    return denied(`Asking for approval of "${call.name}" failed: ${errorMessage(error)}`);
  }
  return decision === true ? undefined : denied(`The user denied this call to "${call.name}"`);
}
