import { isAmbiError } from '../errors/ambi-error.js';
import { LazyAbortController, onAbort, sourceOf, type AbortSource } from './abort-source.js';
import { deadline } from './deadlines.js';
import { NotJsonError, toJsonOutput } from './json-output.js';
import type { JsonValue, Tool, ToolContext } from './types.js';

/** How one attempt ended. Only the ToolManager decides what follows (retry or result). */
export type AttemptOutcome =
  | { kind: 'ok'; output: JsonValue }
  | { kind: 'timeout' }
  | { kind: 'aborted'; reason: unknown }
  | { kind: 'tool_error'; message: string }
  /** `code`: a coded infrastructure failure (say `worker_crashed`) kept as is; otherwise `crashed`. */
  | { kind: 'crashed'; message: string; code?: string };

/**
 * Run one attempt of a call under its timeout. The attempt's signal is aborted on
 * timeout (reason: a `TimeoutError` DOMException) or when `outer` aborts; either way
 * the attempt settles at once and whatever the tool returns later is discarded.
 */
export async function runAttempt(
  tool: Tool,
  args: unknown,
  ctx: Omit<ToolContext, 'signal'>,
  outer: AbortSignal | undefined,
): Promise<AttemptOutcome> {
  const controller = new LazyAbortController();
  let settled = false;
  let stop!: (outcome: AttemptOutcome) => void;
  const stopped = new Promise<AttemptOutcome>((resolve) => (stop = resolve));
  // Settle first, then abort: the tool's reaction to its signal must not win the race.
  const end = (outcome: AttemptOutcome, reason: unknown) => {
    settled = true;
    stop(outcome);
    controller.abort(reason);
  };
  const unhookOuter = outer ? onAbort(outer, () => end({ kind: 'aborted', reason: outer.reason }, outer.reason)) : undefined;
  const cancelTimeout = deadline(tool.timeoutMs, () => {
    const reason = new DOMException(`Tool "${tool.name}" timed out after ${tool.timeoutMs} ms`, 'TimeoutError');
    end({ kind: 'timeout' }, reason);
  });

  // The signal is made when the tool reads it (aborting makes it too, so a late read sees it aborted).
  const context: ToolContext = {
    ...ctx,
    get signal() {
      return controller.signal;
    },
  };
  attempts.set(context, controller);
  const running = invoke(tool, args, context).then(
    (output): AttemptOutcome => (settled ? { kind: 'ok', output: null } : toOutcome(tool.name, output)),
    (error: unknown): AttemptOutcome => classifyThrow(tool.name, error),
  );
  try {
    return await Promise.race([running, stopped]);
  } finally {
    settled = true;
    cancelTimeout();
    unhookOuter?.();
  }
}

/** Each attempt's context, with the controller behind its signal. */
const attempts = new WeakMap<ToolContext, LazyAbortController>();

/** How a call is told of its abort: for an attempt's own context, without making its signal (a tool that forwards the call elsewhere). */
export function abortSourceOf(ctx: ToolContext): AbortSource {
  return attempts.get(ctx) ?? sourceOf(ctx.signal);
}

// An async wrapper turns a synchronous throw into a rejection like any other.
async function invoke(tool: Tool, args: unknown, ctx: ToolContext): Promise<unknown> {
  return tool.call(args, ctx);
}

function toOutcome(toolName: string, output: unknown): AttemptOutcome {
  try {
    return { kind: 'ok', output: toJsonOutput(output) };
  } catch (error) {
    if (!(error instanceof NotJsonError)) throw error;
    return { kind: 'crashed', message: `Tool "${toolName}" returned an output that is not JSON: ${error.message}` };
  }
}

function classifyThrow(toolName: string, error: unknown): AttemptOutcome {
  if (isAmbiError(error, 'tool_error')) return { kind: 'tool_error', message: error.message };
  if (isAmbiError(error)) return { kind: 'crashed', code: error.code, message: error.message };
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { kind: 'crashed', message: `Tool "${toolName}" failed unexpectedly: ${detail}` };
}
