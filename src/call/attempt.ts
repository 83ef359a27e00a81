import { errorMessage } from '../errors/error-message.js';
import { isAmbiError } from '../errors/ambi-error.js';
import type { JsonValue, ToolCall, ToolResult } from '../core/types.js';
import type { MediaPart } from '../core/parts.js';
import { mediaParts } from '../parts/normalize.js';
import { OutputWithParts } from '../parts/with-parts.js';
import { toolContext } from '../tools/tool-context.js';
import type { CallHandle, OnToolError, RunScope, Tool, ToolContext } from '../tools/types.js';
import { callReporting } from '../util/call-reporting.js';
import { LazyAbortController, onAbort } from '../util/abort-source.js';
import { deadline } from '../util/deadlines.js';
import { delay } from '../util/delay.js';
import { isThenable } from '../util/thenable.js';
import { toolFailure, toolSuccess } from './result.js';
import { UntrustedOutput } from './untrusted-output.js';
import { outputJson } from './output-json.js';

/** How one attempt ended. Only `runAttempts` decides what follows (a retry or the result). */
export type AttemptOutcome =
  /** `untrusted`: the tool said its output holds untrusted words (see UntrustedOutput); `parts`: images or files beside it (`withParts`). */
  | { kind: 'ok'; output: JsonValue; untrusted?: true; parts?: MediaPart[] }
  | { kind: 'timeout' }
  | { kind: 'aborted'; reason: unknown }
  | { kind: 'tool_error'; message: string }
  /** The tool's own realm refused the arguments (its Standard Schema): the call never ran. */
  | { kind: 'invalid_arguments'; message: string }
  /** `code`: a coded infrastructure failure (say `worker_crashed`) kept as is; otherwise `crashed`. */
  | { kind: 'crashed'; message: string; code?: string };

/** What the attempts of one call report and run with. */
export interface AttemptsOptions {
  signal?: AbortSignal;
  idempotencyKey: string;
  scope?: RunScope;
  onAttempt?: (attempt: number) => void;
  onRetry?: (info: { attempt: number; nextAttempt: number; delayMs: number }) => void;
  /** Told what a tool threw when it was its own failure (not a ToolError): the `crashed` result keeps only its message. */
  onToolError?: OnToolError;
  /** What the call left running before a reload (a resumed call's), handed to the tool as `ctx.handle`. */
  handle?: CallHandle;
  /** Where the tool records what it leaves running (`ctx.noteHandle`): the call's journal entry. */
  noteHandle?: (handle: CallHandle) => Promise<void>;
}

/**
 * Stage 7 of a call: the tool's `call` under its timeout, tried again after a timeout if the tool
 * is idempotent (after `retryDelayMs`, at most `maxRetries` times). A `ToolError` or any other
 * throw is never retried; an abort ends the call. Resolves with the result, never rejects.
 */
export async function runAttempts(tool: Tool, call: ToolCall, args: unknown, options: AttemptsOptions, started: number): Promise<ToolResult> {
  const { signal } = options;
  if (signal?.aborted) return resultOf(call, tool, 0, { kind: 'aborted', reason: signal.reason }, started);
  for (let attempt = 1; ; attempt++) {
    options.onAttempt?.(attempt);
    const ctx: Omit<ToolContext, 'signal'> = { callId: call.id, attempt, idempotencyKey: options.idempotencyKey };
    if (options.scope) ctx.run = options.scope;
    if (call.target) ctx.target = call.target;
    if (options.handle) ctx.handle = options.handle;
    if (options.noteHandle) ctx.noteHandle = options.noteHandle;
    const outcome = await runAttempt(tool, args, ctx, signal, options.onToolError);
    if (!retries(tool, outcome, attempt)) return resultOf(call, tool, attempt, outcome, started);
    options.onRetry?.({ attempt, nextAttempt: attempt + 1, delayMs: tool.retryDelayMs });
    if (!(await delay(tool.retryDelayMs, signal))) return resultOf(call, tool, attempt, { kind: 'aborted', reason: signal?.reason }, started);
  }
}

/** Whether a call is tried again after this attempt: only an idempotent tool's, only after a timeout, only so many times. */
function retries(tool: Tool, outcome: AttemptOutcome, attempt: number): boolean {
  return outcome.kind === 'timeout' && tool.idempotent && attempt <= tool.maxRetries;
}

/**
 * One attempt under its timeout. The attempt's signal aborts on timeout (reason: a
 * `TimeoutError` DOMException) or when `outer` aborts; either way the attempt settles at once
 * and whatever the tool returns later is discarded.
 */
export function runAttempt(
  tool: Tool,
  args: unknown,
  ctx: Omit<ToolContext, 'signal'>,
  outer: AbortSignal | undefined,
  onToolError?: OnToolError,
): Promise<AttemptOutcome> {
  // A throw that is the tool's own failure is told to its developer, with what was thrown.
  const classifyThrow = (toolName: string, error: unknown): AttemptOutcome => {
    const outcome = outcomeOfThrow(toolName, error);
    if (outcome.kind === 'crashed' && outcome.code === undefined && onToolError)
      callReporting(() => onToolError({ tool: toolName, callId: ctx.callId, attempt: ctx.attempt, error }));
    return outcome;
  };
  return new Promise<AttemptOutcome>((resolve) => {
    const controller = new LazyAbortController();
    let settled = false;
    let cancelTimeout: (() => void) | undefined;
    let unhookOuter: (() => void) | undefined;
    const settle = (outcome: AttemptOutcome): boolean => {
      if (settled) return false;
      settled = true;
      cancelTimeout?.();
      unhookOuter?.();
      resolve(outcome);
      return true;
    };
    // Settle first, then abort: the tool's reaction to its signal must not win the race.
    const end = (outcome: AttemptOutcome, reason: unknown) => {
      if (settle(outcome)) controller.abort(reason);
    };
    const onTimeout = () => end({ kind: 'timeout' }, new DOMException(`Tool "${tool.name}" timed out after ${tool.timeoutMs} ms`, 'TimeoutError'));
    // A run's call may wait for a person inside its attempt (an MCP server's question): no timeout runs meanwhile.
    let held = false;
    if (ctx.run) {
      ctx.holdTimeout = () => {
        held = true;
        cancelTimeout?.();
        cancelTimeout = undefined;
        return () => {
          if (!held || settled) return;
          held = false;
          cancelTimeout = deadline(tool.timeoutMs, onTimeout);
        };
      };
    }
    let output: unknown;
    let later: boolean;
    try {
      output = tool.call(args, toolContext(ctx, controller));
      later = isThenable(output); // reads `then`, which may throw too
    } catch (error) {
      settle(classifyThrow(tool.name, error));
      return;
    }
    // A tool that answered at once had no time to time out; one that aborted the run as it was called is aborted.
    if (outer?.aborted) return end({ kind: 'aborted', reason: outer.reason }, outer.reason);
    if (!later) {
      settle(toOutcome(tool, output));
      return;
    }
    unhookOuter = outer ? onAbort(outer, () => end({ kind: 'aborted', reason: outer.reason }, outer.reason)) : undefined;
    if (!held) cancelTimeout = deadline(tool.timeoutMs, onTimeout);
    Promise.resolve(output).then(
      (value) => settled || settle(toOutcome(tool, value)),
      (error: unknown) => settled || settle(classifyThrow(tool.name, error)),
    );
  });
}

/** The output as JSON, or `crashed`: an output JSON cannot hold, or whose own `toJSON` throws, is the tool's failure. */
function toOutcome(tool: Tool, output: unknown): AttemptOutcome {
  try {
    if (UntrustedOutput.is(output)) return { kind: 'ok', output: outputJson(tool.name, output.value), untrusted: true };
    // Checked for what they are here; their size against the agent's caps where the run is (the content extension).
    if (OutputWithParts.is(output)) return { kind: 'ok', output: outputJson(tool.name, output.output), parts: mediaParts(output.parts, Infinity) };
    return { kind: 'ok', output: outputJson(tool.name, output) };
  } catch (error) {
    return outcomeOfThrow(tool.name, error);
  }
}

function outcomeOfThrow(toolName: string, error: unknown): AttemptOutcome {
  if (isAmbiError(error, 'tool_error')) return { kind: 'tool_error', message: error.message };
  if (isAmbiError(error, 'invalid_arguments')) return { kind: 'invalid_arguments', message: error.message };
  if (isAmbiError(error)) return { kind: 'crashed', code: error.code, message: error.message };
  const detail = error instanceof Error ? `${error.name}: ${errorMessage(error)}` : errorMessage(error);
  return { kind: 'crashed', message: `Tool "${toolName}" failed unexpectedly: ${detail}` };
}

/** The ToolResult of the attempt that ended the call. */
function resultOf(call: ToolCall, tool: Tool, attempts: number, outcome: AttemptOutcome, started: number): ToolResult {
  const durationMs = performance.now() - started;
  if (outcome.kind === 'ok') {
    const success = toolSuccess(call, outcome.output, attempts, durationMs);
    if (outcome.untrusted) success.untrusted = true;
    if (outcome.parts && outcome.parts.length > 0) success.parts = outcome.parts;
    return success;
  }
  const code = outcome.kind === 'crashed' ? (outcome.code ?? 'crashed') : outcome.kind;
  // Arguments refused where the tool lives: the call never ran.
  return toolFailure(call, code, messageOf(outcome, tool, attempts), outcome.kind === 'invalid_arguments' ? 0 : attempts, durationMs);
}

function messageOf(outcome: Exclude<AttemptOutcome, { kind: 'ok' }>, tool: Tool, attempts: number): string {
  switch (outcome.kind) {
    case 'timeout': {
      const tries = attempts > 1 ? ` on each of ${attempts} attempts` : '';
      return `Tool "${tool.name}" timed out after ${tool.timeoutMs} ms${tries}`;
    }
    case 'aborted': {
      const reason = outcome.reason === undefined ? '' : errorMessage(outcome.reason);
      return `Tool "${tool.name}" was aborted${reason ? `: ${reason}` : ''}`;
    }
    default:
      return outcome.message;
  }
}
