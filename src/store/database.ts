import { StorageError } from '../errors/storage-error.js';
import { SCHEMA_VERSION, upgradeSchema, type AmbiDatabase } from './schema.js';
import { afterEarlierOpens, openDB } from './open-queue.js';
import { toStorageError } from './storage-failure.js';

/** The database every IndexedDB store opens unless given another name. */
export const DEFAULT_DATABASE_NAME = 'ambi-web';

export interface OpenDatabaseOptions {
  /**
   * How long to wait, once the browser reports the upgrade blocked by another tab's
   * connection, before rejecting with `storage_blocked` (default 1000). A tab running
   * ambi-web closes its connection at once; an older page that does not may never.
   */
  blockedTimeoutMs?: number;
}

const DEFAULT_BLOCKED_TIMEOUT_MS = 1000;

// One connection per database name in this realm, shared by every store that opens it.
const connections = new Map<string, Promise<AmbiDatabase>>();

/**
 * One life of a database in this realm: from its first open here until it is deleted or
 * the browser closes its connection under us (site data cleared, a disk failure). Closing
 * it ourselves, or another tab's upgrade, does not end it: the data is still there.
 */
export interface DatabaseLife {
  /** How it ended (`deleted`, `closed by the browser`); undefined while it lasts. */
  ended?: string;
}

// The current life of each database name this realm has opened, and the life each connection belongs to.
const lives = new Map<string, DatabaseLife>();
const lifeOfConnection = new WeakMap<AmbiDatabase, DatabaseLife>();

/** The life of the database a connection from `openAmbiDatabase` is open on. */
export function lifeOf(db: AmbiDatabase): DatabaseLife {
  return lifeOfConnection.get(db) ?? {};
}

function endLife(name: string, life: DatabaseLife | undefined, how: string): void {
  if (!life || life.ended) return;
  life.ended = how;
  if (lives.get(name) === life) lives.delete(name);
}

/** Open (or reuse) this realm's connection to an ambi-web database, upgrading its schema if needed. */
export function openAmbiDatabase(name = DEFAULT_DATABASE_NAME, options: OpenDatabaseOptions = {}): Promise<AmbiDatabase> {
  const cached = connections.get(name);
  if (cached) return cached;
  // After an open given up on as blocked, a retry waits for it to leave the browser's queue (see open-queue.ts).
  const opening = afterEarlierOpens(
    name,
    options.blockedTimeoutMs ?? DEFAULT_BLOCKED_TIMEOUT_MS,
    () => stillBlocked(name),
    () =>
      connect(name, options, () => {
        if (connections.get(name) === opening) connections.delete(name);
      }),
  );
  connections.set(name, opening);
  // A failed open is not cached: the next call tries again (say, once the other tab closed).
  opening.catch(() => {
    if (connections.get(name) === opening) connections.delete(name);
  });
  return opening;
}

function stillBlocked(name: string): StorageError {
  return new StorageError(
    `Could not open database "${name}" at version ${SCHEMA_VERSION}: an earlier open is still blocked by another connection (another tab, or a worker) that does not close it; close or reload the other tabs`,
    { code: 'storage_blocked' },
  );
}

/** Close this realm's connection to a database (stores reopen it on their next operation). */
export async function closeAmbiDatabase(name = DEFAULT_DATABASE_NAME): Promise<void> {
  const opening = connections.get(name);
  if (!opening) return;
  connections.delete(name);
  const db = await opening.catch(() => undefined);
  db?.close();
}

function connect(name: string, options: OpenDatabaseOptions, forget: () => void): Promise<AmbiDatabase> {
  if (typeof indexedDB === 'undefined') {
    return Promise.reject(
      new StorageError(`Could not open database "${name}": IndexedDB is not available in this environment`, {
        code: 'storage_unavailable',
      }),
    );
  }
  return new Promise((resolve, reject) => {
    let gaveUp = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const giveUp = (currentVersion: number) => {
      gaveUp = true;
      reject(
        new StorageError(
          `Could not open database "${name}" at version ${SCHEMA_VERSION}: another connection (another tab, or a worker) holds version ${currentVersion} open and does not close it; close or reload the other tabs`,
          { code: 'storage_blocked' },
        ),
      );
    };
    let upgradeFailure: unknown;
    let request: Promise<AmbiDatabase>;
    // This connection's life, known once it opens.
    let life: DatabaseLife | undefined;
    try {
      request = openDB(name, SCHEMA_VERSION, {
        upgrade: (db, oldVersion, _newVersion, transaction) => {
          // No database where this realm had one: it was deleted while we held no connection to hear it.
          if (oldVersion === 0) endLife(name, lives.get(name), 'deleted');
          // A failed upgrade reaches the caller as the open's rejection, carrying the step's own error.
          transaction.done.catch(() => {});
          const fail = (error: unknown) => {
            upgradeFailure ??= error;
            try {
              transaction.abort();
            } catch {
              // Already aborted (its own request failed): the open rejects with the first failure.
            }
          };
          try {
            // A step that moves records settles later, within the same upgrade transaction.
            upgradeSchema(db, oldVersion, undefined, transaction)?.catch(fail);
          } catch (error) {
            fail(error);
          }
        },
        blocked: (currentVersion) => {
          timer ??= setTimeout(() => giveUp(currentVersion), options.blockedTimeoutMs ?? DEFAULT_BLOCKED_TIMEOUT_MS);
        },
        // Another tab wants a newer version (or to delete the database): step aside rather than block it.
        blocking: (_current, blockedVersion, event) => {
          if (blockedVersion === null) endLife(name, life, 'deleted');
          forget();
          (event.target as IDBDatabase).close();
        },
        terminated: () => {
          endLife(name, life, 'closed by the browser');
          forget();
        },
      });
    } catch (error) {
      reject(toStorageError(error, `open database "${name}"`));
      return;
    }
    request.then(
      (db) => {
        clearTimeout(timer);
        // The open went through after we gave up on it: nobody holds this connection, so release it.
        if (gaveUp) {
          db.close();
          return;
        }
        life = lives.get(name) ?? {};
        lives.set(name, life);
        lifeOfConnection.set(db, life);
        resolve(db);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!gaveUp) reject(toStorageError(upgradeFailure ?? error, `open database "${name}"`));
      },
    );
  });
}
