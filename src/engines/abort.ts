import { EngineError } from '../errors/engine-error.js';
import { delay } from '../util/delay.js';

/** The coded error for a request its caller aborted; the signal's reason is kept as `cause`. */
export function abortedError(signal?: AbortSignal): EngineError {
  return new EngineError('aborted', 'The model request was aborted', { cause: signal?.reason });
}

/** Throw `aborted` if the signal already fired. */
export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw abortedError(signal);
}

/** Wait `ms`, rejecting with `aborted` as soon as the signal fires. */
export async function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (!(await delay(ms, signal))) throw abortedError(signal);
}
