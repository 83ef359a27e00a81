import type { ToolContext } from './types.js';

/** A tool's context: `ctx`, and a `signal` taken from `source` when the tool reads it (most never do, and making one costs). */
export function toolContext(ctx: Omit<ToolContext, 'signal'>, source: { readonly signal: AbortSignal }): ToolContext {
  return {
    ...ctx,
    get signal() {
      return source.signal;
    },
  };
}
