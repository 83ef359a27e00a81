/**
 * What a memory store keeps and the rules it keeps it by, loaded with the store's first call: an
 * agent whose runs never touch its default store (no `conversation`, no journal) never fetches
 * them. Calls take effect in the order they were made, awaited or not: those made before the load
 * settles wait on it and run in turn; once it is done and none waits any more, a call runs at once,
 * as a store that loaded nothing would. A load that failed fails the calls that waited on it and
 * is tried again by the next one.
 */
export class FirstCallLoad<T> {
  #loading: Promise<T> | undefined;
  #loaded: { value: T } | undefined;
  /** Calls waiting on the load that have not run yet: until the last has, a new call waits too. */
  #waiting = 0;

  constructor(private readonly load: () => Promise<T>) {}

  /** `use` what was loaded (loading it first), after every call made before this one. */
  call<R>(use: (loaded: T) => R | Promise<R>): Promise<R> {
    if (this.#loaded && this.#waiting === 0) {
      try {
        return Promise.resolve(use(this.#loaded.value));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    this.#waiting++;
    this.#loading ??= this.load().then(
      (value) => {
        this.#loaded = { value };
        return value;
      },
      (error: unknown) => {
        this.#loading = undefined;
        throw error;
      },
    );
    return this.#loading.then(
      (loaded) => {
        this.#waiting--;
        return use(loaded);
      },
      (error: unknown) => {
        this.#waiting--;
        throw error;
      },
    );
  }

  /** Whether a call was made: until then there is nothing the store keeps. */
  get started(): boolean {
    return this.#loading !== undefined || this.#loaded !== undefined;
  }
}
