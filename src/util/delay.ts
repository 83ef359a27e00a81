import { onAbort } from './abort-source.js';

/** Wait `ms`; resolves `false` at once if `signal` aborts first (never rejects). */
export function delay(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      unhook?.();
      resolve(true);
    }, ms);
    const unhook =
      signal &&
      onAbort(signal, () => {
        clearTimeout(timer);
        resolve(false);
      });
  });
}
