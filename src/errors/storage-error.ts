import { AmbiError } from './ambi-error.js';

/** Codes a storage failure can carry; `storage_error` when no more specific one applies. */
export type StorageErrorCode =
  | 'storage_error'
  | 'storage_quota'
  | 'storage_uncloneable'
  | 'storage_blocked'
  | 'storage_unavailable'
  | 'storage_aborted'
  | 'storage_closed'
  | 'storage_version'
  /** A value given to a store is not one it holds (not a message, no key, a bad length): nothing was written. */
  | 'storage_invalid'
  /** What was read is not what the store writes (a row without its message, a gap): refused, nothing changed. */
  | 'storage_corrupt';

/** A store could not read or write: nothing was written, and `cause` holds the browser's own error when there is one. */
export class StorageError extends AmbiError {
  constructor(message: string, options: { code?: StorageErrorCode; cause?: unknown } = {}) {
    super(options.code ?? 'storage_error', message, { cause: options.cause });
  }
}
