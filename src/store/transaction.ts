import type { IDBPTransaction, StoreNames } from 'idb';
import type { AmbiDatabase, AmbiDbSchema } from './schema.js';

type Names = ArrayLike<StoreNames<AmbiDbSchema>>;

/**
 * Run `body` in one transaction and settle once the transaction has committed. If `body`
 * throws (a value that cannot be cloned, a refused transition) the whole transaction is
 * aborted, so none of its writes land. `body` must await nothing but this transaction's
 * own requests, or the transaction closes under it (see idb's "transaction lifetime").
 */
export async function transact<S extends Names, Mode extends IDBTransactionMode, T>(
  db: AmbiDatabase,
  stores: S,
  mode: Mode,
  body: (tx: IDBPTransaction<AmbiDbSchema, S, Mode>) => Promise<T>,
  options?: IDBTransactionOptions,
): Promise<T> {
  const tx = db.transaction(stores, mode, options);
  // Observed below; this keeps an abort caused by `body` from surfacing as an unhandled rejection.
  tx.done.catch(() => {});
  let value: T;
  try {
    value = await body(tx);
  } catch (error) {
    abortQuietly(tx);
    throw error;
  }
  await tx.done;
  return value;
}

/**
 * Queue a write whose outcome the transaction reports: a failed request aborts the
 * transaction, and `transact` rejects with that request's error.
 */
export function queue(request: Promise<unknown>): void {
  request.catch(() => {});
}

function abortQuietly(tx: { abort(): void }): void {
  try {
    tx.abort();
  } catch {
    // Already committed or aborted: nothing left to undo.
  }
}
