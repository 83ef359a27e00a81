import { EngineError } from '../../errors/engine-error.js';
import { childController } from '../../util/abort-source.js';
import { abortedError } from '../abort.js';

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
  let lastActivity = performance.now();
  let timedOut = false;

  // One timer per attempt: a read only moves `lastActivity` (reads come by the thousand); a timer
  // that fires before the attempt was idle long enough waits out the rest.
  const watch = (limit: number, wait: number) => {
    timer = setTimeout(() => {
      if (controller.signal.aborted) return;
      const idle = performance.now() - lastActivity;
      if (idle < limit) return watch(limit, limit - idle);
      timedOut = true;
      controller.abort(new EngineError('timeout', `The model server sent nothing for ${limit} ms`));
    }, wait);
  };
  if (idleMs !== undefined && !controller.signal.aborted) watch(idleMs, idleMs);

  return {
    signal: controller.signal,
    touch() {
      lastActivity = performance.now();
    },
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
