import { isAmbiError } from '../errors/ambi-error.js';
import { StorageError, type StorageErrorCode } from '../errors/storage-error.js';

/** What each IndexedDB / structured-clone failure (a DOMException name) means to a caller. */
const MEANINGS: Record<string, { code: StorageErrorCode; meaning: string }> = {
  QuotaExceededError: { code: 'storage_quota', meaning: "the browser's storage quota for this site is exhausted" },
  DataCloneError: { code: 'storage_uncloneable', meaning: 'a value cannot be stored (not structured-cloneable, e.g. a function)' },
  AbortError: { code: 'storage_aborted', meaning: 'the transaction was aborted' },
  InvalidStateError: { code: 'storage_closed', meaning: 'the database connection is closed or no longer usable' },
  VersionError: { code: 'storage_version', meaning: 'the database was upgraded to a newer version by newer code (reload the page)' },
  SecurityError: { code: 'storage_unavailable', meaning: 'this page is not allowed to use IndexedDB' },
};

/** The coded StorageError for a failed store operation; ambi-web errors pass through unchanged. */
export function toStorageError(error: unknown, action: string): Error {
  if (isAmbiError(error)) return error;
  const { name, message } = nameAndMessage(error);
  const known = name === undefined ? undefined : MEANINGS[name];
  const detail = name === undefined ? message : `${name}: ${message}`;
  const reason = known ? `${known.meaning} (${detail})` : detail;
  return new StorageError(`Could not ${action}: ${reason}`, { code: known?.code ?? 'storage_error', cause: error });
}

/** Run a store operation so that every failure reaches the caller as a coded error, never raw. */
export async function storageOperation<T>(action: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw toStorageError(error, action);
  }
}

// Duck-typed: a DOMException from another realm (an iframe, a worker's clone) fails `instanceof`.
function nameAndMessage(error: unknown): { name?: string; message: string } {
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const { name, message } = error as { name?: unknown; message?: unknown };
  return typeof name === 'string' ? { name, message: typeof message === 'string' ? message : '' } : { message: String(error) };
}

/** The refusal of a value a store does not hold (`storage_invalid`): nothing was written. */
export function invalidValue(action: string, reason: string): StorageError {
  return new StorageError(`Could not ${action}: ${reason}`, { code: 'storage_invalid' });
}

/** The refusal of stored data that is not what the store writes (`storage_corrupt`): nothing was changed. */
export function corruptData(action: string, reason: string): StorageError {
  return new StorageError(`Could not ${action}: ${reason}`, { code: 'storage_corrupt' });
}
