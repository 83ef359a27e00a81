import type { CallTarget } from '../core/types.js';
import type { CallHandle, RunScope, ToolContext } from './types.js';

/** Where a context's signal comes from when the tool reads it, and who hears its abort without one. */
type SignalSource = { readonly signal: AbortSignal; onAbort(callback: () => void): () => void };

/** `signal`'s descriptor, one getter for every context (set in the class's static block, where `#source` is readable). */
let signalProperty: PropertyDescriptor;

/**
 * A tool's context. `signal` is an own enumerable accessor (a copy of the context, `{ ...ctx }`,
 * has it), whose signal is made when first read: most tools never read it, and making one costs.
 * One getter shared by every context, defined on each: a getter written in an object literal is a
 * new function per context, and V8 gives each such object a map of its own (a few hundred bytes,
 * and a slow path, on every call, on each side of the worker).
 */
class CallContext {
  readonly #source: SignalSource;
  declare readonly callId: string;
  declare readonly attempt: number;
  declare readonly idempotencyKey: string;
  declare run?: RunScope;
  declare target?: CallTarget;
  declare handle?: CallHandle;
  declare noteHandle?: (handle: CallHandle) => Promise<void>;
  declare holdTimeout?: () => () => void;
  declare readonly signal: AbortSignal;

  static {
    signalProperty = {
      get(this: CallContext) {
        return this.#source.signal;
      },
      enumerable: true,
      configurable: true,
    };
  }

  constructor(ctx: Omit<ToolContext, 'signal'>, source: SignalSource) {
    // Field by field, in the order a copy of the context shows them; `run` only where `ctx` has it.
    this.callId = ctx.callId;
    this.attempt = ctx.attempt;
    this.idempotencyKey = ctx.idempotencyKey;
    if (ctx.run !== undefined || 'run' in ctx) this.run = ctx.run;
    if (ctx.target !== undefined) this.target = ctx.target;
    // Only a run's calls have these (a resumed one's handle, a journalled one's notes, a timeout to hold).
    if (ctx.handle !== undefined) this.handle = ctx.handle;
    if (ctx.noteHandle !== undefined) this.noteHandle = ctx.noteHandle;
    if (ctx.holdTimeout !== undefined) this.holdTimeout = ctx.holdTimeout;
    this.#source = source;
    Object.defineProperty(this, 'signal', signalProperty);
  }

  onAbort(callback: () => void): () => void {
    return this.#source.onAbort(callback);
  }
}

/** A tool's context: `ctx`'s fields, and a `signal` taken from `source` when the tool reads it. */
export function toolContext(ctx: Omit<ToolContext, 'signal'>, source: SignalSource): ToolContext {
  return new CallContext(ctx, source) as ToolContext;
}
