import { AmbiError } from '../errors/ambi-error.js';

/**
 * A single-reader queue read with `for await`, that never stalls the producer: a callback
 * stream (run events, a local model's chunks) bridged to an async iterable. `join` may merge
 * an item into the unread ones (text deltas into the last, a call's progress into its unread
 * progress), which keeps memory bounded by the producer's own work. One reader at a time: a second one, while the first reads, is refused
 * with `events_busy` (two would wake only one of them, and the other would wait forever); a
 * reader that stops early leaves what it had not read for the next.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  #queue: T[] = [];
  #wake: (() => void) | undefined;
  #closed = false;
  #failure: { error: unknown } | undefined;
  #reading = false;
  #sink: ((item: T | null) => void) | undefined;

  /** `join(unread, next)`: merge `next` into an item not yet read (and say so), or leave it to be queued. */
  constructor(private readonly join?: (unread: readonly T[], next: T) => boolean) {}

  /** Queue an item (or merge it into the unread one before it). */
  push(item: T): void {
    if (this.#closed) return;
    if (this.#sink) return this.#sink(item);
    if (!this.join?.(this.#queue, item)) this.#queue.push(item);
    this.#notify();
  }

  /** No more items; the reader drains what is queued, then ends. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#sink?.(null);
    this.#notify();
  }

  /** End with `error`: the reader gets what is queued, then the error. */
  fail(error: unknown): void {
    if (this.#closed) return;
    this.#failure = { error };
    this.close();
  }

  /**
   * Hand every item, synchronously as it is pushed, to `sink` instead of a reader (`null`
   * once closed): for a sink that batches on its own, such as a port.
   */
  pipe(sink: (item: T | null) => void): void {
    for (const item of this.#queue.splice(0)) sink(item);
    if (this.#closed) sink(null);
    else this.#sink = sink;
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** Everything queued now (waiting for at least one item), or null once closed and drained. */
  async #take(): Promise<T[] | null> {
    while (this.#queue.length === 0) {
      if (this.#closed) {
        if (this.#failure) throw this.#failure.error;
        return null;
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    const batch = this.#queue;
    this.#queue = [];
    return batch;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    if (this.#reading) throw new AmbiError('events_busy', 'This stream has one reader at a time, and another is reading it');
    this.#reading = true;
    // Each batch is handed over and forgotten, so a slow reader holds no history.
    let batch: T[] = [];
    let at = 0;
    try {
      for (;;) {
        if (at === batch.length) {
          const next = await this.#take();
          if (!next) return;
          [batch, at] = [next, 0];
        }
        yield batch[at++]!;
      }
    } finally {
      // A reader that broke out early: what it had not read goes back in front, for the next one.
      if (at < batch.length) this.#queue = batch.slice(at).concat(this.#queue);
      this.#reading = false;
    }
  }
}
