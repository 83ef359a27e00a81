import { isAmbiError } from '../errors/ambi-error.js';
import type { ToolCallJournal } from '../store/types.js';
import { applyRule, type ApprovalRule } from '../tools/approval-rule.js';
import { decodeArgs, type DecodedArgs } from '../validation/decode-args.js';
import { toolFailure } from '../tools/tool-failure.js';
import { executeEntry, type ExecuteOptions } from '../tools/execute-entry.js';
import type { ToolManager } from '../tools/tool-manager.js';
import { untilAborted } from '../util/abort-source.js';
import type { RunScope } from '../tools/types.js';
import type { ToolCall, ToolResult } from '../core/types.js';
import type { Approvals } from './approvals.js';
import type { DurableApprovals } from './ask-approval.js';
import type { RunEvent } from './events.js';
import type { Limiter } from './limiter.js';
import type { KeyedToolCall } from './model-turn.js';
import { errorMessage } from '../util/error-message.js';
import { loadOnce } from '../util/load-once.js';

// Loaded once, for the first call that asks: calls waiting for it ask in the order they reached it.
const askCode = loadOnce(() => import('./ask-approval.js'));

/** What running one call needs from its run. */
export interface DispatchContext {
  tools: ToolManager;
  /** The run's own limit, then the shared budget, if any. */
  limiters: readonly Limiter[];
  approvals: Approvals;
  emit: (event: RunEvent) => void;
  signal: AbortSignal;
  /** Records non-idempotent calls before and after they run. */
  journal?: ToolCallJournal;
  conversation?: string;
  /** The conversation's approval store: requests and decisions outlive the page. */
  durable?: DurableApprovals;
}

/** Whether a call must wait for the whole reply: side effects never start from a partial stream. */
export function mayStartEarly(call: ToolCall, tools: ToolManager): boolean {
  const tool = tools.registry.get(call.name);
  return tool?.idempotent === true && !tool.needsApproval;
}

/** Run one call: ask for approval if its tool wants it, wait for a slot, execute. Never rejects. */
export async function dispatchCall(asked: KeyedToolCall, ctx: DispatchContext, scope?: RunScope): Promise<ToolResult> {
  // The call that runs: the model's, or the one the person edited on approval.
  let call = asked;
  let edited = false;
  const started = performance.now();
  // Looked up once for the whole call; undefined: execute reports the unknown tool.
  const entry = ctx.tools.registry.entry(call.name);
  const tool = entry?.tool;
  const rule = tool?.needsApproval;
  const releases: Array<() => void> = [];
  let journaled = tool?.idempotent === false ? ctx.journal : undefined;
  let decoded: DecodedArgs | undefined;
  try {
    // Decoded up front only where the arguments decide something (the call then runs with them,
    // decoded once): a rule reads them, a person is never asked about invalid ones, and a journal
    // records only a call that can run. Any other call spends no promise here.
    // Decoding and the rule race the run's signal: a rule that never settles must not keep Stop from stopping the run.
    if (entry && (rule || journaled)) decoded = await untilAborted(Promise.resolve(decodeArgs(call.name, call.arguments, entry.validate)), ctx.signal);
    const invalid = decoded?.ok === false;
    if (
      !invalid &&
      (rule === true || (decoded?.ok === true && typeof rule === 'function' && (await untilAborted(ruleAsks(rule, decoded.value, ctx.signal), ctx.signal))))
    ) {
      // Asking loads its code (stored requests and decisions) the first time a call needs it.
      const decision = await (await askCode()).askApproval(call, ctx);
      if (!decision.approved) {
        const why = decision.reason ? `: ${decision.reason}` : '';
        return stopped(call, ctx, started, 'denied', `The user denied this call to "${call.name}"${why}`);
      }
      // An approved call runs once, whatever the reloads: journalled even when its tool is idempotent.
      journaled ??= ctx.journal;
      if (decision.arguments !== undefined && entry) {
        // Validated again, as the model's were: edited arguments that do not fit never reach the tool.
        call = { ...call, arguments: decision.arguments };
        edited = true;
        decoded = await untilAborted(Promise.resolve(decodeArgs(call.name, call.arguments, entry.validate)), ctx.signal);
      }
    }
    // A delegating tool (a leaf) waits on calls that need the shared budget: it holds only the run's own slot.
    const limiters = tool?.delegates ? ctx.limiters.slice(0, 1) : ctx.limiters;
    for (const limiter of limiters) releases.push(await limiter.acquire(ctx.signal));
  } catch (error) {
    for (const release of releases.reverse()) release();
    if (ctx.signal.aborted) return stopped(call, ctx, started, 'aborted', `Tool "${call.name}" was aborted before it started`);
    // Not an abort: a failure of the runner's own (say a clash of call ids), never one of the tool's.
    return stopped(call, ctx, started, isAmbiError(error) ? error.code : 'crashed', `Tool "${call.name}" was not run: ${errorMessage(error)}`);
  }
  try {
    // Set when the model's reply was read (model-turn): the journal entry and every attempt share it.
    const key = call.idempotencyKey;
    // Only a call that can run is recorded (invalid arguments end in executeEntry, unrun).
    const journal = decoded?.ok === true ? journaled : undefined;
    if (journal) {
      try {
        await journal.begin({
          idempotencyKey: key,
          callId: call.id,
          name: call.name,
          arguments: call.arguments,
          ...(ctx.conversation ? { conversation: ctx.conversation } : {}),
        });
      } catch (error) {
        // Unrecorded, a consequential call could run twice after a reload: it does not run at all.
        const code = isAmbiError(error) ? error.code : 'storage_error';
        return stopped(call, ctx, started, code, `Tool "${call.name}" was not run: its journal entry could not be written (${errorMessage(error)})`);
      }
    }
    const options = new CallEvents(call, ctx.emit, ctx.signal);
    // Set, not spread in: a spread into a literal is V8's slow path, on every call.
    if (scope) options.scope = scope;
    const executed = await executeEntry(ctx.tools.registry, entry, call, decoded, options);
    const result: ToolResult = edited ? { ...executed, editedArguments: call.arguments } : executed;
    // The result also reaches the conversation; a journal that stays `started` only makes a resume cautious.
    if (journal) await journal.finish(key, result).catch(() => {});
    ctx.emit({ type: 'tool_finished', result });
    return result;
  } finally {
    for (const release of releases.reverse()) release();
  }
}

/** A call's execute options, whose attempts report as run events: methods, not two closures made per call. */
class CallEvents implements ExecuteOptions {
  scope?: RunScope;

  constructor(
    readonly call: ToolCall,
    readonly emit: (event: RunEvent) => void,
    readonly signal: AbortSignal,
  ) {}

  onAttempt(attempt: number): void {
    this.emit({ type: 'tool_started', callId: this.call.id, name: this.call.name, attempt });
  }

  onRetry(info: { attempt: number; nextAttempt: number; delayMs: number }): void {
    this.emit({ type: 'tool_retry', callId: this.call.id, name: this.call.name, ...info });
  }
}

/** The result of a call that ended before its tool ran (its own function: no closure per call for the rare case). */
function stopped(call: KeyedToolCall, ctx: DispatchContext, started: number, code: string, message: string): ToolResult {
  const result = toolFailure(call, code, message, 0, performance.now() - started);
  ctx.emit({ type: 'tool_finished', result });
  return result;
}

/** A tool's approval rule applied to this call's decoded arguments (invalid arguments fail later, unapproved). */
async function ruleAsks(rule: ApprovalRule, args: unknown, signal: AbortSignal): Promise<boolean> {
  try {
    return Boolean(await applyRule(rule, args, signal));
  } catch {
    return true; // a rule that cannot decide asks the person
  }
}
