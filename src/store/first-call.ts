/**
 * What a memory store keeps and the rules it keeps it by, loaded with the store's first call: an
 * agent whose runs never touch its default store (no `conversation`, no journal) never fetches
 * them. Every call waits on the same load and then runs, so calls take effect in the order they
 * were made, awaited or not; once loaded, a call waits one microtask. A load that failed fails the
 * calls that waited on it and is tried again by the next one.
 */
export class FirstCallLoad<T> {
  #loading: Promise<T> | undefined;

  constructor(private readonly load: () => Promise<T>) {}

  /** `use` what was loaded (loading it first), after every call made before this one. */
  call<R>(use: (loaded: T) => R | Promise<R>): Promise<R> {
    this.#loading ??= this.load().catch((error: unknown) => {
      this.#loading = undefined;
      throw error;
    });
    return this.#loading.then(use);
  }

  /** Whether a call was made: until then there is nothing the store keeps. */
  get started(): boolean {
    return this.#loading !== undefined;
  }
}
