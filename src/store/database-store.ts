import { openAmbiDatabase, type OpenDatabaseOptions } from './database.js';

/** What every IndexedDB store shares: its database's name, and the realm's one connection to it. */
export abstract class DatabaseStore {
  readonly #options: OpenDatabaseOptions;

  protected constructor(
    readonly dbName: string,
    options: OpenDatabaseOptions,
  ) {
    this.#options = options;
  }

  /** The shared connection (reopened if another tab's upgrade or the browser closed it). */
  protected db() {
    return openAmbiDatabase(this.dbName, this.#options);
  }
}
