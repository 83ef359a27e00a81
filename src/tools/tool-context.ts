import type { ToolContext } from './types.js';

/**
 * A tool's context: `ctx`, and a `signal` taken from `source` when the tool reads it (most never do, and making one costs).
 * Built field by field: spreading `ctx` into a literal that also has a getter took V8's slow path,
 * several µs a call on each side of the worker (the page's tool gets one too).
 */
export function toolContext(ctx: Omit<ToolContext, 'signal'>, source: { readonly signal: AbortSignal }): ToolContext {
  const { callId, attempt, idempotencyKey, run } = ctx;
  if (run === undefined && !('run' in ctx)) {
    return {
      callId,
      attempt,
      idempotencyKey,
      get signal() {
        return source.signal;
      },
    };
  }
  return {
    callId,
    attempt,
    idempotencyKey,
    run,
    get signal() {
      return source.signal;
    },
  } as ToolContext;
}
