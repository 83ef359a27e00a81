import { resolveURL } from './realm-url.js';

// Downloaded models live in Cache Storage (shared by the page and its workers, same origin),
// keyed by absolute URL. An entry is written only once the whole file arrived and was checked.

/** The Cache Storage cache that holds downloaded models. */
export const MODEL_CACHE_NAME = 'ambi-web-models';

/** Cache Storage, where this realm has it (secure contexts: https, localhost). */
function cacheStorage(): CacheStorage | undefined {
  return typeof caches === 'undefined' ? undefined : caches;
}

/** The cache key of a model URL: absolute, so the page and a worker agree. */
export function modelCacheKey(url: string): string {
  const absolute = resolveURL(url);
  if (!absolute) throw new TypeError(`Not a URL, or relative with no location to resolve it against: ${url}`);
  return absolute.href;
}

/** The cached model bytes for `url`, if any. */
export async function readCachedModel(url: string): Promise<Blob | undefined> {
  const storage = cacheStorage();
  if (!storage) return undefined;
  const response = await (await storage.open(MODEL_CACHE_NAME)).match(modelCacheKey(url));
  return response ? response.blob() : undefined;
}

/** Keep these checked bytes for `url`. A failure (quota, no Cache Storage) only means no cache: false. */
export async function writeCachedModel(url: string, blob: Blob): Promise<boolean> {
  const storage = cacheStorage();
  if (!storage) return false;
  try {
    const headers = { 'content-type': 'application/octet-stream', 'content-length': String(blob.size) };
    await (await storage.open(MODEL_CACHE_NAME)).put(modelCacheKey(url), new Response(blob, { headers }));
    return true;
  } catch {
    return false;
  }
}

/** Whether a model downloaded from `url` is in the cache (so loading it needs no network). */
export async function isLocalModelCached(url: string): Promise<boolean> {
  const storage = cacheStorage();
  if (!storage) return false;
  return (await (await storage.open(MODEL_CACHE_NAME)).match(modelCacheKey(url))) !== undefined;
}

/** Remove the cached copy of the model downloaded from `url`; true if there was one. */
export async function deleteCachedLocalModel(url: string): Promise<boolean> {
  const storage = cacheStorage();
  if (!storage) return false;
  return (await storage.open(MODEL_CACHE_NAME)).delete(modelCacheKey(url));
}
