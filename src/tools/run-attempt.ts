import { isAmbiError } from '../errors/ambi-error.js';
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
  const controller = new AbortController();
  let settled = false;
  let stop!: (outcome: AttemptOutcome) => void;
  const stopped = new Promise<AttemptOutcome>((resolve) => (stop = resolve));
  // Settle first, then abort: the tool's reaction to its signal must not win the race.
  const end = (outcome: AttemptOutcome, reason: unknown) => {
    settled = true;
    stop(outcome);
    controller.abort(reason);
  };
  const onOuterAbort = () => end({ kind: 'aborted', reason: outer?.reason }, outer?.reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  const timer = setTimeout(() => {
    const reason = new DOMException(`Tool "${tool.name}" timed out after ${tool.timeoutMs} ms`, 'TimeoutError');
    end({ kind: 'timeout' }, reason);
  }, tool.timeoutMs);

  // A getter: Node builds a controller's signal on first access, at a cost of microseconds, and
  // most tools never read it (aborting it builds it too, so a late read sees it aborted).
  const context: ToolContext = {
    ...ctx,
    get signal() {
      return controller.signal;
    },
  };
  const running = invoke(tool, args, context).then(
    (output): AttemptOutcome => (settled ? { kind: 'ok', output: null } : toOutcome(tool.name, output)),
    (error: unknown): AttemptOutcome => classifyThrow(tool.name, error),
  );
  try {
    return await Promise.race([running, stopped]);
  } finally {
    settled = true;
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
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
