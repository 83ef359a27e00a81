/**
 * A lazily loaded module (`() => import('./x.js')`), loaded once: every caller awaits the same
 * promise, so callers resume in the order they asked (two `import()` calls of one module may
 * settle in either order, and reorder what their callers then emit). A failed load is tried again
 * by the next caller.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
