import { EngineError } from '../errors/engine-error.js';
import { childController } from '../tools/abort-source.js';
import { abortedError } from './abort.js';

/** One HTTP attempt's cancellation: the caller's signal plus an idle timeout, as one signal. */
export interface RequestLifetime {
  /** Give this to fetch: it cancels the request and the body reading. */
  readonly signal: AbortSignal;
  /** Restart the idle clock (data arrived). */
  touch(): void;
  /** The coded error for a failure: `aborted` or `timeout` if that is why it failed, else `fallback(error)`. */
  explain(error: unknown, fallback: (error: unknown) => EngineError): EngineError;
  /** Stop the clock and let go of the caller's signal. */
  dispose(): void;
}

/** Start one attempt's lifetime; `idleMs` unset means no timeout. */
export function startLifetime(callerSignal: AbortSignal | undefined, idleMs: number | undefined): RequestLifetime {
  const { controller, unlink } = childController(callerSignal);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timedOut = false;

  const touch = () => {
    if (idleMs === undefined || controller.signal.aborted) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new EngineError('timeout', `The model server sent nothing for ${idleMs} ms`));
    }, idleMs);
  };
  touch();

  return {
    signal: controller.signal,
    touch,
    explain(error, fallback) {
      if (callerSignal?.aborted) return abortedError(callerSignal);
      if (timedOut) return controller.signal.reason as EngineError;
      return error instanceof EngineError ? error : fallback(error);
    },
    dispose() {
      clearTimeout(timer);
      unlink();
    },
  };
}

