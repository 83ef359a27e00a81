import { isAmbiError } from '../errors/ambi-error.js';
import type { ToolCallJournal } from '../store/types.js';
import { applyRule, type ApprovalRule } from '../tools/approval-rule.js';
import { decodeArgs, type DecodedArgs } from '../validation/decode-args.js';
import { toolFailure } from '../tools/tool-failure.js';
import { executeEntry, type ExecuteOptions } from '../tools/execute-entry.js';
import type { RegisteredTool } from '../tools/registry.js';
import type { ToolManager } from '../tools/tool-manager.js';
import { untilAborted } from '../util/abort-source.js';
import type { RunScope, Tool } from '../tools/types.js';
import type { ToolCall, ToolResult } from '../core/types.js';
import type { Approvals } from './approvals.js';
import type { DurableApprovals } from './ask-approval.js';
import type { RunEvent } from './events.js';
import type { Limiter } from '../util/limiter.js';
import type { KeyedToolCall } from './model-turn.js';
import { errorMessage } from '../errors/error-message.js';
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
export function dispatchCall(asked: KeyedToolCall, ctx: DispatchContext, scope?: RunScope): Promise<ToolResult> {
  const started = performance.now();
  // Looked up once for the whole call; undefined: execute reports the unknown tool.
  const entry = ctx.tools.registry.entry(asked.name);
  const tool = entry?.tool;
  const journaled = tool?.idempotent === false ? ctx.journal : undefined;
  if (entry && (tool?.needsApproval || journaled)) return guardedCall(asked, entry, journaled, ctx, started, scope);
  // Nothing to decide before its slot: the call waits for it as an entry in the limiters' queues,
  // not as a suspended function, and starts from the release that frees the slot.
  return new Promise((resolve) => {
    takeSlots(
      tool,
      ctx,
      (releases) => resolve(runInSlots({ call: asked, entry, decoded: undefined, edited: false, journal: undefined, started, scope }, releases, ctx)),
      (error) => resolve(notStarted(asked, ctx, started, error)),
    );
  });
}

/**
 * A call whose arguments decide something before it runs (decoded once, the call then runs
 * with them): a rule reads them, a person is never asked about invalid ones, and a journal
 * records only a call that can run.
 */
async function guardedCall(
  asked: KeyedToolCall,
  entry: RegisteredTool,
  journaledIfRun: ToolCallJournal | undefined,
  ctx: DispatchContext,
  started: number,
  scope: RunScope | undefined,
): Promise<ToolResult> {
  // The call that runs: the model's, or the one the person edited on approval.
  let call = asked;
  let edited = false;
  let journaled = journaledIfRun;
  const rule = entry.tool.needsApproval;
  let releases: Array<() => void>;
  let decoded: DecodedArgs;
  try {
    // Decoding and the rule race the run's signal: a rule that never settles must not keep Stop from stopping the run.
    decoded = await untilAborted(Promise.resolve(decodeArgs(call.name, call.arguments, entry.validate)), ctx.signal);
    if (decoded.ok && (rule === true || (typeof rule === 'function' && (await untilAborted(ruleAsks(rule, decoded.value, ctx.signal), ctx.signal))))) {
      // Asking loads its code (stored requests and decisions) the first time a call needs it.
      const decision = await (await askCode()).askApproval(call, ctx);
      if (!decision.approved) {
        const why = decision.reason ? `: ${decision.reason}` : '';
        return stopped(call, ctx, started, 'denied', `The user denied this call to "${call.name}"${why}`);
      }
      // An approved call runs once, whatever the reloads: journalled even when its tool is idempotent.
      journaled ??= ctx.journal;
      if (decision.arguments !== undefined) {
        // Validated again, as the model's were: edited arguments that do not fit never reach the tool.
        call = { ...call, arguments: decision.arguments };
        edited = true;
        decoded = await untilAborted(Promise.resolve(decodeArgs(call.name, call.arguments, entry.validate)), ctx.signal);
      }
    }
    releases = await new Promise((resolve, reject) => takeSlots(entry.tool, ctx, resolve, reject));
  } catch (error) {
    return notStarted(call, ctx, started, error);
  }
  // Only a call that can run is recorded (invalid arguments end in executeEntry, unrun).
  return runInSlots({ call, entry, decoded, edited, journal: decoded.ok ? journaled : undefined, started, scope }, releases, ctx);
}

/**
 * Take a slot of each of the run's limiters in turn (a delegating tool, a leaf, only the run's
 * own: it waits on calls that need the shared budget), then `granted` with their releases; or
 * `refused` with the signal's reason, holding none.
 */
function takeSlots(tool: Tool | undefined, ctx: DispatchContext, granted: (releases: Array<() => void>) => void, refused: (reason: unknown) => void): void {
  const limiters = tool?.delegates ? ctx.limiters.slice(0, 1) : ctx.limiters;
  const releases: Array<() => void> = [];
  const next = (): void => {
    const limiter = limiters[releases.length];
    if (!limiter) return granted(releases);
    limiter.whenFree(
      ctx.signal,
      (release) => {
        releases.push(release);
        next();
      },
      (reason) => {
        for (const release of releases.reverse()) release();
        refused(reason);
      },
    );
  };
  next();
}

/** A call about to run, as its slots are taken. */
interface ReadyCall {
  /** The call that runs: the model's, or the one the person edited on approval (`edited`). */
  call: KeyedToolCall;
  entry: RegisteredTool | undefined;
  /** Its arguments, if decoded already (a guarded call's); else they are decoded as it runs. */
  decoded: DecodedArgs | undefined;
  edited: boolean;
  /** Where it is recorded before and after it runs, if it must be. */
  journal: ToolCallJournal | undefined;
  /** When it was dispatched (`performance.now()`), for the durations of calls that never start. */
  started: number;
  scope: RunScope | undefined;
}

/** Run a call that holds its slots: journal it if it must be, execute it, report it, free the slots. */
async function runInSlots(ready: ReadyCall, releases: Array<() => void>, ctx: DispatchContext): Promise<ToolResult> {
  const { call, entry, decoded, journal, started, scope } = ready;
  try {
    // Set when the model's reply was read (model-turn): the journal entry and every attempt share it.
    const key = call.idempotencyKey;
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
    // A call without a journal is reported, and frees its slots, as its last attempt settles: the next
    // call starts then, not a few promise steps later. A journalled one is finished in its journal first.
    let early: ToolResult | undefined;
    const finish = journal ? undefined : (executed: ToolResult) => void (early = finished(asRun(executed, ready), ctx, releases));
    const executed = await executeEntry(ctx.tools.registry, entry, call, decoded, options, finish);
    if (early) return early;
    const result = asRun(executed, ready);
    // The result also reaches the conversation; a journal that stays `started` only makes a resume cautious.
    if (journal) await journal.finish(key, result).catch(() => {});
    return finished(result, ctx, releases);
  } finally {
    freeSlots(releases);
  }
}

/** The result as the call ran: with the arguments the person edited it to, if they did. */
function asRun(executed: ToolResult, { call, edited }: ReadyCall): ToolResult {
  return edited ? { ...executed, editedArguments: call.arguments } : executed;
}

/** Report a call's result and free its slots (the next call may start from that, at once). */
function finished(result: ToolResult, ctx: DispatchContext, releases: Array<() => void>): ToolResult {
  ctx.emit({ type: 'tool_finished', result });
  freeSlots(releases);
  return result;
}

/** Free a call's slots, the last taken first; once only. */
function freeSlots(releases: Array<() => void>): void {
  for (const release of releases.splice(0).reverse()) release();
}

/** The result of a call that never started: aborted while it waited, or stopped by a failure of the runner's own. */
function notStarted(call: KeyedToolCall, ctx: DispatchContext, started: number, error: unknown): ToolResult {
  if (ctx.signal.aborted) return stopped(call, ctx, started, 'aborted', `Tool "${call.name}" was aborted before it started`);
  // Not an abort: a failure of the runner's own (say a clash of call ids), never one of the tool's.
  return stopped(call, ctx, started, isAmbiError(error) ? error.code : 'crashed', `Tool "${call.name}" was not run: ${errorMessage(error)}`);
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
