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
