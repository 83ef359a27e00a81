import { EngineError } from './engine-error.js';

/** The model server answered with a non-2xx status; `message` carries the server's own words. */
export class EngineHttpError extends EngineError {
  override name = 'EngineHttpError';
  constructor(
    readonly status: number,
    message: string,
    /** The wait the server asked for (Retry-After), when it named one. */
    readonly retryAfterMs?: number,
  ) {
    super('http_error', message);
  }
}
