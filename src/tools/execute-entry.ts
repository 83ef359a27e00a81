// One call under its tool's policy (decode, attempts, timeout, retries), for ToolManager.execute and
// for callers that looked up the call's entry already (the runner, WebMCP offers). Loads no validator compiler.
import type { RegisteredTool, ToolRegistry } from './registry.js';
import { decodeArgs, type DecodedArgs } from '../validation/decode-args.js';
import { isThenable } from '../util/thenable.js';
import { delay } from '../util/delay.js';
import { runAttempt, type AttemptOutcome } from './run-attempt.js';
import { toolFailure } from './tool-failure.js';
import type { RunScope, Tool } from './types.js';
import type { ToolCall, ToolResult } from '../core/types.js';
import { errorMessage } from '../errors/error-message.js';

/** Options for one `execute`. */
export interface ExecuteOptions {
  /** Aborting it ends the call as `aborted`, with no retry. */
  signal?: AbortSignal;
  /** The key every attempt gets (default: the call's own `idempotencyKey`, which the runner sets; else a fresh one per call). */
  idempotencyKey?: string;
  /** Called as each attempt starts (1-based). */
  onAttempt?: (attempt: number) => void;
  /** The run the call belongs to, handed to the tool as `ctx.run`. */
  scope?: RunScope;
  /** Called when a timed-out attempt will be retried after `delayMs`. */
  onRetry?: (info: { attempt: number; nextAttempt: number; delayMs: number }) => void;
}

/**
 * `ToolManager.execute` with the call's registry entry already looked up (undefined: an unknown
 * tool), as the runner does once per call, and its arguments already decoded if they were
 * (for an approval rule): they are not decoded again.
 */
export async function executeEntry(
  registry: ToolRegistry,
  entry: RegisteredTool | undefined,
  call: ToolCall,
  decoded: DecodedArgs | undefined,
  options: ExecuteOptions = {},
  /**
   * Told the result as the attempt that ends the call settles, before the returned promise
   * settles (the runner frees the call's slot then: the next call starts a few promise
   * steps sooner). Not told of a call that ends before an attempt. It must not throw.
   */
  onResult?: (result: ToolResult) => void,
): Promise<ToolResult> {
  const started = performance.now();
  const { id, name } = call;

  if (!entry) {
    const known = registry.names();
    return toolFailure(
      call,
      'unknown_tool',
      `Unknown tool "${name}". Available tools: ${known.length ? known.join(', ') : 'none'}`,
      0,
      performance.now() - started,
    );
  }
  const { tool, validate } = entry;
  const decoding = decoded ?? decodeArgs(name, call.arguments, validate);
  const args = isThenable(decoding) ? await decoding : decoding;
  if (!args.ok) return toolFailure(call, args.code ?? 'invalid_arguments', args.message, 0, performance.now() - started);
  const { signal } = options;
  if (signal?.aborted) return resultOf(call, started, 0, { kind: 'aborted', reason: signal.reason }, tool);

  const idempotencyKey = options.idempotencyKey ?? call.idempotencyKey ?? crypto.randomUUID();
  for (let attempt = 1; ; attempt++) {
    options.onAttempt?.(attempt);
    // Two literals rather than a spread of one: a spread into a literal is V8's slow path.
    const ctx = options.scope ? { callId: id, attempt, idempotencyKey, run: options.scope } : { callId: id, attempt, idempotencyKey };
    let ended: ToolResult | undefined;
    const onEnd =
      onResult &&
      ((outcome: AttemptOutcome) => {
        if (retries(tool, outcome, attempt)) return;
        ended = resultOf(call, started, attempt, outcome, tool);
        onResult(ended);
      });
    const outcome = await runAttempt(tool, args.value, ctx, signal, onEnd);
    if (!retries(tool, outcome, attempt)) return ended ?? resultOf(call, started, attempt, outcome, tool);
    options.onRetry?.({ attempt, nextAttempt: attempt + 1, delayMs: tool.retryDelayMs });
    if (!(await delay(tool.retryDelayMs, signal))) return resultOf(call, started, attempt, { kind: 'aborted', reason: signal?.reason }, tool);
  }
}

/** Whether a call is tried again after this attempt: only an idempotent tool's, only after a timeout, only so many times. */
function retries(tool: Tool, outcome: AttemptOutcome, attempt: number): boolean {
  return outcome.kind === 'timeout' && tool.idempotent && attempt <= tool.maxRetries;
}

/** The ToolResult of the attempt that ended the call: no closure for it per call. */
function resultOf(call: ToolCall, started: number, attempts: number, outcome: AttemptOutcome, tool: Tool): ToolResult {
  if (outcome.kind === 'ok') return { id: call.id, name: call.name, ok: true, output: outcome.output, attempts, durationMs: performance.now() - started };
  const code = outcome.kind === 'crashed' ? (outcome.code ?? 'crashed') : outcome.kind;
  // Arguments refused where the tool lives: the call never ran.
  return toolFailure(call, code, messageOf(outcome, tool, attempts), outcome.kind === 'invalid_arguments' ? 0 : attempts, performance.now() - started);
}

function messageOf(outcome: Exclude<AttemptOutcome, { kind: 'ok' }>, tool: Tool, attempts: number): string {
  const { name } = tool;
  switch (outcome.kind) {
    case 'timeout': {
      const tries = attempts > 1 ? ` on each of ${attempts} attempts` : '';
      return `Tool "${name}" timed out after ${tool.timeoutMs} ms${tries}`;
    }
    case 'aborted':
      return `Tool "${name}" was aborted${describeReason(outcome.reason)}`;
    default:
      return outcome.message;
  }
}

function describeReason(reason: unknown): string {
  if (reason === undefined) return '';
  const text = errorMessage(reason);
  return text ? `: ${text}` : '';
}
