import { StorageError } from '../../errors/storage-error.js';
import { errorMessage } from '../../errors/error-message.js';
import { resolveURL } from '../realm-url.js';

// Downloaded models live in Cache Storage (shared by the page and its workers, same origin),
// keyed by absolute URL. An entry is written only once the whole file arrived and was checked.

/** The Cache Storage cache that holds downloaded models. */
export const MODEL_CACHE_NAME = 'ambi-web-models';

/** The cache key of a model URL: absolute, so the page and a worker agree. */
export function modelCacheKey(url: string): string {
  const absolute = resolveURL(url);
  if (!absolute) throw new TypeError(`Not a URL, or relative with no location to resolve it against: ${url}`);
  return absolute.href;
}

/**
 * The models' cache, or undefined where there is none to use: no Cache Storage in this realm
 * (insecure contexts), or Cache Storage refuses (private modes throw SecurityError).
 */
async function openModelCache(): Promise<Cache | undefined> {
  if (typeof caches === 'undefined') return undefined;
  try {
    return await caches.open(MODEL_CACHE_NAME);
  } catch {
    return undefined;
  }
}

/** The cached model bytes for `url`, if any. A cache that cannot be read is no cache: the model is downloaded. */
export async function readCachedModel(url: string): Promise<Blob | undefined> {
  const response = await cachedResponse(url);
  try {
    return await response?.blob();
  } catch {
    return undefined;
  }
}

/** Keep these checked bytes for `url`. A failure (quota, no Cache Storage) only means no cache: false. */
export async function writeCachedModel(url: string, blob: Blob): Promise<boolean> {
  const cache = await openModelCache();
  if (!cache) return false;
  try {
    const headers = { 'content-type': 'application/octet-stream', 'content-length': String(blob.size) };
    await cache.put(modelCacheKey(url), new Response(blob, { headers }));
    return true;
  } catch {
    return false;
  }
}

/** Whether a model downloaded from `url` is in the cache (so loading it needs no network); false when the cache cannot be read. */
export async function isLocalModelCached(url: string): Promise<boolean> {
  return (await cachedResponse(url)) !== undefined;
}

/**
 * Remove the cached copy of the model downloaded from `url`; true if there was one. Where there
 * is no Cache Storage nothing can be cached (false); where it refuses, the copy may still be
 * there, so that is a `StorageError` (`storage_unavailable`, or `storage_error` if the delete fails).
 */
export async function deleteCachedLocalModel(url: string): Promise<boolean> {
  if (typeof caches === 'undefined') return false;
  const cache = await openModelCache();
  if (!cache)
    throw new StorageError('Could not delete the cached model: Cache Storage refused to open (private browsing modes do)', { code: 'storage_unavailable' });
  try {
    return await cache.delete(modelCacheKey(url));
  } catch (cause) {
    throw new StorageError(`Could not delete the cached model: ${errorMessage(cause)}`, { cause });
  }
}

/** The cache entry for `url`; undefined when there is none or the cache cannot be read. */
async function cachedResponse(url: string): Promise<Response | undefined> {
  const cache = await openModelCache();
  try {
    return await cache?.match(modelCacheKey(url));
  } catch {
    return undefined;
  }
}
