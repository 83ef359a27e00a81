/**
 * The events of the stream `open()` makes on the first `next()`, passed on as they come: an
 * engine whose code loads on first use, or whose errors are rewritten on the way out, streams
 * through this instead of an async generator of its own. A `yield*` in one would pass every
 * event (each token, each call) through two generators' queues; this is one hop. What the stream
 * (or `open`) throws is replaced by what `mapError` gives, if there is one. Ending early
 * (`break` in a `for await`) ends the inner stream.
 */
export function deferredStream<T>(
  open: () => AsyncIterable<T> | Promise<AsyncIterable<T>>,
  mapError?: (error: unknown) => unknown | Promise<unknown>,
): AsyncIterable<T> {
  const fail = mapError && (async (error: unknown): Promise<never> => Promise.reject(await mapError(error)));
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      let inner: AsyncIterator<T> | undefined;
      const step = (iterator: AsyncIterator<T>) => (fail ? iterator.next().then(undefined, fail) : iterator.next());
      return {
        next: () =>
          inner
            ? step(inner)
            : Promise.resolve()
                .then(open)
                .then((stream) => step((inner = stream[Symbol.asyncIterator]())), fail),
        return: async (value?: unknown) => {
          await inner?.return?.(value);
          return { done: true, value: value as T };
        },
      };
    },
  };
}
