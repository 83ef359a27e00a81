import { abortedError } from './abort.js';

/** `promise`, or an `aborted` rejection as soon as `signal` fires (the promise itself runs on). */
export function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortedError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/**
 * One generation at a time on a model, in arrival order: a small model in the browser has
 * one context, and a leaf's turn must not interleave with its parent's.
 */
export class TurnLock {
  #tail: Promise<void> = Promise.resolve();

  /** Wait for the turn (abortable); call the returned function when done. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    let release!: () => void;
    const previous = this.#tail;
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.#tail = previous.then(() => mine);
    try {
      await untilAborted(previous, signal);
    } catch (error) {
      release(); // give up the place in line: the next one waits only for `previous`
      throw error;
    }
    return release;
  }
}

/** Pushed values read as an async iterable: bridges a callback stream to `for await`. */
export class ChunkQueue<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #done = false;
  #error: { error: unknown } | undefined;
  #wake: (() => void) | undefined;

  push(item: T): void {
    this.#items.push(item);
    this.#notify();
  }

  close(): void {
    this.#done = true;
    this.#notify();
  }

  fail(error: unknown): void {
    this.#error = { error };
    this.#notify();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      if (this.#items.length > 0) {
        yield this.#items.shift()!;
        continue;
      }
      if (this.#error) throw this.#error.error;
      if (this.#done) return;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
