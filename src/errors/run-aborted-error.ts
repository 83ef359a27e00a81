import { AmbiError } from './ambi-error.js';
import { errorMessage } from './error-message.js';

/** A run was aborted (by `run.abort()` or its signal) before the model answered. */
export class RunAbortedError extends AmbiError {
  override name = 'RunAbortedError';
  constructor(readonly reason?: unknown) {
    const detail = reason === undefined ? '' : errorMessage(reason);
    super('aborted', detail ? `The run was aborted: ${detail}` : 'The run was aborted', { cause: reason });
  }
}
