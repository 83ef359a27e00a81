import { EngineError } from './engine-error.js';
import type { LocalModelErrorCode } from '../core/codes.js';

export type { LocalModelErrorCode };

/** An in-browser model could not be fetched, checked, loaded or run; `status` is set for an HTTP failure. */
export class LocalModelError extends EngineError {
  override name = 'LocalModelError';
  /** The HTTP status of a failed download, when there was one. */
  readonly status: number | undefined;

  constructor(code: LocalModelErrorCode, message: string, options: { cause?: unknown; status?: number } = {}) {
    super(code, message, { cause: options.cause });
    this.status = options.status;
  }
}
