import { onAbort } from '../util/abort-source.js';

/** A FIFO counting semaphore: at most `limit` holders at once. */
export class Limiter {
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    checkLimit(limit);
  }

  /** Slots in use now. */
  get active(): number {
    return this.#active;
  }

  /** Wait for a slot; resolves with its release function, or rejects with the signal's reason. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#active < this.limit) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        unhook?.();
        this.#active++;
        resolve(this.#releaser());
      };
      this.#waiting.push(grant);
      const unhook =
        signal &&
        onAbort(signal, () => {
          const at = this.#waiting.indexOf(grant);
          if (at >= 0) this.#waiting.splice(at, 1);
          reject(signal.reason);
        });
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      this.#waiting.shift()?.();
    };
  }
}

/** A process-wide cap on running tool calls, shared by several runners and their leaves. */
export class ConcurrencyBudget extends Limiter {}

/** Throw a RangeError unless `limit` is a whole number >= 1. */
export function checkLimit(limit: number): void {
  if (!(Number.isInteger(limit) && limit >= 1)) throw new RangeError(`A concurrency limit must be a whole number >= 1 (got ${limit})`);
}
