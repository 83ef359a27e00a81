import { isAmbiError } from '../../errors/ambi-error.js';
import { LocalModelError } from '../../errors/local-model-error.js';
import { abortedError, throwIfAborted } from '../abort.js';
import { errorMessage } from '../../errors/error-message.js';
import { deleteCachedLocalModel, readCachedModel, writeCachedModel } from './cache.js';
import { inspectGguf, looksLikeWebPage, type GgufInfo } from './gguf.js';
import type { LocalModelProgress } from './local-model.js';
import { realmFetch } from '../realm-fetch.js';
import { urlSecrets, withoutURLSecrets } from '../url-secrets.js';

/** How model bytes are obtained. */
export interface DownloadLocalModelOptions {
  signal?: AbortSignal;
  /** Download progress (`phase: 'download'`), throttled; the last event has `loaded === total`. */
  onProgress?: (progress: LocalModelProgress) => void;
  /** Tests and odd runtimes swap `fetch`. */
  fetch?: typeof fetch;
  /** Read and write Cache Storage (default true). */
  cache?: boolean;
}

/** Checked model bytes and where they came from. */
export interface ModelBytes {
  blob: Blob;
  info: GgufInfo;
  from: 'cache' | 'network';
}

const PROGRESS_INTERVAL_MS = 100;

/**
 * A GGUF model's bytes, from Cache Storage if they are there, else downloaded with progress,
 * checked (GGUF magic, version, header, size) and only then cached: a failed, cut or invalid
 * download leaves nothing behind. A cached copy that no longer checks out is replaced.
 */
export async function obtainModelBytes(url: string, options: DownloadLocalModelOptions = {}): Promise<ModelBytes> {
  const useCache = options.cache ?? true;
  throwIfAborted(options.signal);
  if (useCache) {
    const cached = await readCachedModel(url);
    if (cached) {
      try {
        return { blob: cached, info: await inspectGguf(cached), from: 'cache' };
      } catch {
        // If the bad copy cannot be deleted, the download below overwrites it.
        await deleteCachedLocalModel(url).catch(() => {});
      }
    }
  }
  const blob = await download(url, options);
  const info = await inspectGguf(blob);
  throwIfAborted(options.signal);
  if (useCache) await writeCachedModel(url, blob);
  return { blob, info, from: 'network' };
}

/** Make sure the model at `url` is downloaded, checked and cached (no network if it already is); resolve to its bytes. */
export async function downloadLocalModel(url: string, options: DownloadLocalModelOptions = {}): Promise<Blob> {
  return (await obtainModelBytes(url, options)).blob;
}

/** The model's bytes from the network; failures name the URL without its user-info or query values (a signed URL's key). */
async function download(url: string, options: DownloadLocalModelOptions): Promise<Blob> {
  try {
    return await fetchModel(url, options);
  } catch (error) {
    throw withoutURLSecrets(error, urlSecrets(url));
  }
}

async function fetchModel(url: string, options: DownloadLocalModelOptions): Promise<Blob> {
  const { signal, onProgress } = options;
  const fetchImpl = options.fetch ?? realmFetch;
  let response: Response;
  try {
    response = await fetchImpl(url, signal ? { signal } : {});
  } catch (cause) {
    if (signal?.aborted) throw abortedError(signal);
    throw new LocalModelError('download_failed', `Could not download the model from ${url}: ${errorMessage(cause)}`, { cause });
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new LocalModelError('download_failed', `Downloading the model from ${url} failed: HTTP ${response.status} ${response.statusText}`.trim(), {
      status: response.status,
    });
  }
  // A dev server answers a missing file with its index.html, a host with a sign-in page: say so, not "not GGUF".
  if (/\btext\/html\b/i.test(response.headers.get('content-type') ?? '')) {
    await response.body?.cancel().catch(() => {});
    throw webPage(url, 'text/html');
  }
  // A compressed body's length is not the file's: then only the GGUF check can tell a cut file.
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity';
  const length = Number.parseInt(response.headers.get('content-length') ?? '', 10);
  const total = !encoded && Number.isFinite(length) && length >= 0 ? length : undefined;

  const chunks: Uint8Array[] = [];
  let loaded = 0;
  let lastReport = -Infinity;
  const report = (force: boolean) => {
    const now = Date.now();
    if (!onProgress || (!force && now - lastReport < PROGRESS_INTERVAL_MS)) return;
    lastReport = now;
    onProgress({ phase: 'download', loaded, total });
  };
  report(true);
  if (!response.body) throw new LocalModelError('download_failed', `The model download from ${url} has no body`);
  const reader = response.body.getReader();
  // fetch's signal stops a real body; this also stops one that ignores it.
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.byteLength;
      report(false);
    }
  } catch (cause) {
    if (signal?.aborted) throw abortedError(signal);
    if (isAmbiError(cause)) throw cause;
    throw new LocalModelError('download_failed', `The model download from ${url} broke off after ${loaded} bytes: ${errorMessage(cause)}`, { cause });
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
  throwIfAborted(signal);
  if (total !== undefined && loaded !== total) {
    throw new LocalModelError('download_failed', `The model download from ${url} ended after ${loaded} of ${total} bytes`);
  }
  report(true);
  if (chunks[0] && looksLikeWebPage(chunks[0])) throw webPage(url, 'a page in HTML');
  return new Blob(chunks as BlobPart[]);
}

/** `not_gguf`, worded for the usual cause: the URL is wrong and the server sent a page instead. */
function webPage(url: string, what: string): LocalModelError {
  return new LocalModelError(
    'not_gguf',
    `The URL returned a web page, not a model: ${url} answered with ${what}. Check the model's URL (a server often answers a missing file with a page: a dev server with its index.html, a host with a sign-in page)`,
  );
}
