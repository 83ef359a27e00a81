import { AmbiError } from './ambi-error.js';

/**
 * A replayed run made a request that is not the recorded one (or one more than were recorded):
 * `path` is the JSON Pointer of the first difference in the request (`/tools/2/description`),
 * `recorded` and `now` the two values there, shortened.
 */
export class ReplayMismatchError extends AmbiError {
  override name = 'ReplayMismatchError';
  constructor(
    /** Which request of the replay (1 for the first). */
    readonly request: number,
    readonly path: string,
    readonly recorded: string,
    readonly now: string,
    message: string,
  ) {
    super('replay_mismatch', message);
  }
}
