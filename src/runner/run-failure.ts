import { AmbiError, isAmbiError } from '../errors/ambi-error.js';
import { errorMessage } from '../errors/error-message.js';
import type { RunFailure } from '../core/run.js';

export type { RunFailure } from '../core/run.js';

const NOT_DETAILS = new Set(['code', 'message', 'name', 'stack', 'cause']);

/** The failure of a run that rejected with `error`: an uncoded one is `internal_error`. */
export function runFailure(error: unknown): RunFailure {
  const failure: RunFailure = { code: isAmbiError(error) ? error.code : 'internal_error', message: errorMessage(error) };
  if (!isAmbiError(error)) return failure;
  failure.name = error.name;
  const details: Record<string, unknown> = {};
  try {
    for (const [key, value] of Object.entries(error)) {
      // Primitives and arrays of results: what a coded error carries, and what structured cloning takes.
      if (!NOT_DETAILS.has(key) && (value === null || Array.isArray(value) || (typeof value !== 'object' && typeof value !== 'function'))) details[key] = value;
    }
  } catch {
    // A field that throws when read is left out; the code and message still say what failed.
  }
  if (Object.keys(details).length > 0) failure.details = details;
  return failure;
}

/** The coded error a `run_failed` event stands for, rebuilt where the run's `result` rejects (the page of a WorkerRunner). */
export function failureError(failure: RunFailure): AmbiError {
  const error = Object.assign(new AmbiError(failure.code, failure.message), failure.details);
  if (failure.name) error.name = failure.name;
  return error;
}
