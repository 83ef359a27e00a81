import { AmbiError } from './ambi-error.js';
import type { StorageErrorCode } from '../core/codes.js';

export type { StorageErrorCode };

/** A store could not read or write: nothing was written, and `cause` holds the browser's own error when there is one. */
export class StorageError extends AmbiError {
  override name = 'StorageError';
  constructor(message: string, options: { code?: StorageErrorCode; cause?: unknown } = {}) {
    super(options.code ?? 'storage_error', message, { cause: options.cause });
  }
}
