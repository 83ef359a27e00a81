// IndexedDB databases a browser test file creates under fresh names, and their deletion once the runners using them are closed.
import { closeAmbiDatabase } from '../../src/index.js';

/** Delete a database; a deletion some open connection still blocks is not waited for. */
export function deleteUnlessBlocked(name: string): Promise<unknown> {
  return new Promise((resolve) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = req.onerror = req.onblocked = resolve;
  });
}

/** The fresh databases of a test file. */
export interface FreshDatabases {
  /** A new database name `<prefix>-<uuid>`, deleted by the next `deleteAll`. */
  fresh(): string;
  /** Close the page's connection to each database handed out, then delete it. */
  deleteAll(): Promise<void>;
}

/** Fresh database names under `prefix`, deleted with `remove` (by default without waiting on a blocked deletion). */
export function freshDatabases(prefix: string, remove: (name: string) => Promise<unknown> = deleteUnlessBlocked): FreshDatabases {
  const names: string[] = [];
  return {
    fresh: () => {
      const name = `${prefix}-${crypto.randomUUID()}`;
      names.push(name);
      return name;
    },
    deleteAll: async () => {
      for (const name of names.splice(0)) {
        await closeAmbiDatabase(name);
        await remove(name);
      }
    },
  };
}
