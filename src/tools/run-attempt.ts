import { errorMessage } from '../errors/error-message.js';
import { isAmbiError } from '../errors/ambi-error.js';
import { LazyAbortController, onAbort, sourceOf, type AbortSource } from '../util/abort-source.js';
import { deadline } from '../util/deadlines.js';
import { isThenable } from '../util/thenable.js';
import { toolOutputJson } from './json-output.js';
import { toolContext } from './tool-context.js';
import type { Tool, ToolContext } from './types.js';
import type { JsonValue } from '../core/types.js';

/** How one attempt ended. Only the ToolManager decides what follows (retry or result). */
export type AttemptOutcome =
  | { kind: 'ok'; output: JsonValue }
  | { kind: 'timeout' }
  | { kind: 'aborted'; reason: unknown }
  | { kind: 'tool_error'; message: string }
  /** The tool's own realm refused the arguments (its Standard Schema): the call never ran. */
  | { kind: 'invalid_arguments'; message: string }
  /** `code`: a coded infrastructure failure (say `worker_crashed`) kept as is; otherwise `crashed`. */
  | { kind: 'crashed'; message: string; code?: string };

/**
 * Run one attempt of a call under its timeout. The attempt's signal is aborted on
 * timeout (reason: a `TimeoutError` DOMException) or when `outer` aborts; either way
 * the attempt settles at once and whatever the tool returns later is discarded.
 */
export function runAttempt(
  tool: Tool,
  args: unknown,
  ctx: Omit<ToolContext, 'signal'>,
  outer: AbortSignal | undefined,
  /** Told the outcome as the attempt settles, before anyone awaiting its promise is: it must not throw. */
  onEnd?: (outcome: AttemptOutcome) => void,
): Promise<AttemptOutcome> {
  // One promise settled by whichever comes first (the tool, its deadline, the outer abort):
  // no race of promises, no async wrapper, for the few microseconds each would cost a call.
  return new Promise<AttemptOutcome>((resolve) => {
    const controller = new LazyAbortController();
    let settled = false;
    // Set once the tool has been called (see below); a tool that answers at once needs neither.
    let cancelTimeout: (() => void) | undefined;
    let unhookOuter: (() => void) | undefined;
    const settle = (outcome: AttemptOutcome): boolean => {
      if (settled) return false;
      settled = true;
      cancelTimeout?.();
      unhookOuter?.();
      // Resolved first: whatever `onEnd` does, the attempt's promise settles.
      resolve(outcome);
      onEnd?.(outcome);
      return true;
    };
    // Settle first, then abort: the tool's reaction to its signal must not win the race.
    const end = (outcome: AttemptOutcome, reason: unknown) => {
      if (settle(outcome)) controller.abort(reason);
    };

    let output: unknown;
    let later: boolean;
    try {
      // A tool whose code lives in another realm gets the context's fields and the abort as they
      // are; any other, a context whose signal is made when the tool reads it.
      const forward = forwarders.get(tool);
      output = forward ? forward(args, ctx, controller) : callInContext(tool, args, ctx, controller);
      later = isThenable(output); // reads `then`, which may throw too
    } catch (error) {
      settle(classifyThrow(tool.name, error));
      return;
    }
    // The deadline and the outer abort are wired only now, once the call is out (a call to another
    // realm is posted first), and not at all for a tool that answered at once: nothing can time out
    // or abort meanwhile, all of it being synchronous, except the tool itself aborting the run as it
    // is called, which is checked here.
    if (outer?.aborted) return end({ kind: 'aborted', reason: outer.reason }, outer.reason);
    if (!later) {
      settle(toOutcome(tool, output));
      return;
    }
    unhookOuter = outer ? onAbort(outer, () => end({ kind: 'aborted', reason: outer.reason }, outer.reason)) : undefined;
    cancelTimeout = deadline(tool.timeoutMs, () => {
      end({ kind: 'timeout' }, new DOMException(`Tool "${tool.name}" timed out after ${tool.timeoutMs} ms`, 'TimeoutError'));
    });
    // Whatever the tool returns after the attempt settled is discarded unread.
    Promise.resolve(output).then(
      (value) => settled || settle(toOutcome(tool, value)),
      (error: unknown) => settled || settle(classifyThrow(tool.name, error)),
    );
  });
}

/**
 * `tool.call` with its context (the signal made when read: aborting makes it too, so a late read
 * sees it aborted), the attempt marked as being called meanwhile (see `abortSourceOf`).
 */
function callInContext(tool: Tool, args: unknown, ctx: Omit<ToolContext, 'signal'>, controller: LazyAbortController): unknown {
  const context = toolContext(ctx, controller);
  const enclosingContext = callingContext;
  const enclosingController = callingController;
  callingContext = context;
  callingController = controller;
  try {
    return tool.call(args, context);
  } finally {
    callingContext = enclosingContext;
    callingController = enclosingController;
  }
}

/**
 * The attempt whose tool is being called, while its `call` runs: a WeakMap of every
 * attempt's context cost a set per call (and its GC, an ephemeron per entry).
 */
let callingContext: ToolContext | undefined;
/** `callingContext`'s controller (two variables, not an object made per call). */
let callingController: LazyAbortController | undefined;

/**
 * How a call is told of its abort: for the context of the attempt being called, without
 * making its signal (a tool that forwards the call elsewhere does so as it is called);
 * for any other context, from its signal, which behaves the same.
 */
export function abortSourceOf(ctx: ToolContext): AbortSource {
  return callingContext === ctx && callingController ? callingController : sourceOf(ctx.signal);
}

/** The output as JSON, or `crashed`: an output JSON cannot hold, or whose own `toJSON` throws, is the tool's failure. */
function toOutcome(tool: Tool, output: unknown): AttemptOutcome {
  if (jsonOutputs.has(tool)) return { kind: 'ok', output: output as JsonValue };
  try {
    return { kind: 'ok', output: toolOutputJson(tool.name, output) };
  } catch (error) {
    return classifyThrow(tool.name, error);
  }
}

/** Tools whose outputs arrive as JSON already: converted where the tool ran, then cloned across. */
const jsonOutputs = new WeakSet<Tool>();

/** Mark `tool` as one whose outputs need no conversion here (a proxy for a tool in another realm). */
export function outputsJson(tool: Tool): Tool {
  jsonOutputs.add(tool);
  return tool;
}

/** How an attempt reaches a tool in another realm: the context's fields (no signal) and the attempt's abort. */
export type Forward = (args: unknown, ctx: Omit<ToolContext, 'signal'>, abort: AbortSource) => unknown;

const forwarders = new WeakMap<Tool, Forward>();

/**
 * Mark `tool` (a proxy whose `call` forwards to another realm) as one an attempt calls through
 * `forward` instead: the same call, without a context object made only to be read field by field.
 * Its outputs arrive as JSON (see `outputsJson`).
 */
export function forwardsTo(tool: Tool, forward: Forward): Tool {
  forwarders.set(tool, forward);
  return outputsJson(tool);
}

function classifyThrow(toolName: string, error: unknown): AttemptOutcome {
  if (isAmbiError(error, 'tool_error')) return { kind: 'tool_error', message: error.message };
  if (isAmbiError(error, 'invalid_arguments')) return { kind: 'invalid_arguments', message: error.message };
  if (isAmbiError(error)) return { kind: 'crashed', code: error.code, message: error.message };
  const detail = error instanceof Error ? `${error.name}: ${errorMessage(error)}` : errorMessage(error);
  return { kind: 'crashed', message: `Tool "${toolName}" failed unexpectedly: ${detail}` };
}
