// URL sources: streamed download with progress, checks, Cache Storage, and coded failures.
// The "server" is a counting fetch that serves real HTTP-style responses (bodies streamed from
// Blob URLs by the browser's own fetch) at same-origin URLs, so Cache Storage can key them.
import { afterEach, describe, expect, test } from 'vitest';
import { deleteCachedLocalModel, downloadLocalModel, isAmbiError, isLocalModelCached, localModel, type LocalModelProgress } from '../../src/index.js';
import { createLocalEngine } from '../../src/extend/index.js';
import { MODEL_CACHE_NAME } from '../../src/engines/local/cache.js';
import { tinyGguf } from '../support/tiny-gguf.js';

type Route = (signal?: AbortSignal | null) => Response | Promise<Response>;

/** A fake model host: routes by URL, counts every fetch. */
function modelHost() {
  const routes = new Map<string, Route>();
  const fetched: string[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    fetched.push(url);
    init?.signal?.throwIfAborted();
    const route = routes.get(url);
    return route ? route(init?.signal) : new Response('Not Found', { status: 404, statusText: 'Not Found' });
  };
  return { routes, fetched, fetch: fetchImpl };
}

/** Serve `bytes` through the browser's fetch of a Blob URL: a real streamed body with a content-length. */
const serveBytes =
  (bytes: Uint8Array<ArrayBuffer>): Route =>
  async (signal) => {
    const blobUrl = URL.createObjectURL(new Blob([bytes]));
    try {
      return await fetch(blobUrl, signal ? { signal } : {});
    } finally {
      URL.revokeObjectURL(blobUrl);
    }
  };

/** A body that sends `first` bytes of `bytes` and then fails, ends, or stalls (ignoring any abort). */
const serveCut =
  (bytes: Uint8Array<ArrayBuffer>, first: number, how: 'error' | 'end' | 'stall'): Route =>
  () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, first));
        if (how === 'error') controller.error(new TypeError('network error'));
        if (how === 'end') controller.close();
      },
    });
    return new Response(body, { headers: { 'content-length': String(bytes.length) } });
  };

let counter = 0;
const used: string[] = [];
/** A fresh same-origin model URL (a fresh cache key per test). */
function modelUrl(): string {
  const url = new URL(`/models/tiny-${Date.now()}-${counter++}.gguf`, location.href).href;
  used.push(url);
  return url;
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return isAmbiError(error) ? error.code : `not coded: ${String(error)}`;
  }
}

afterEach(async () => {
  for (const url of used.splice(0)) await deleteCachedLocalModel(url);
});

const model = tinyGguf();

describe('a model from a URL', () => {
  test('first start: streamed download with progress, then load; second start: no network at all', async () => {
    const host = modelHost();
    const url = modelUrl();
    host.routes.set(url, serveBytes(model));
    const progress: LocalModelProgress[] = [];
    const config = localModel({ source: url, threads: 1, maxTokens: 4 });

    const first = createLocalEngine(config, { fetch: host.fetch, onProgress: (p) => progress.push(p) });
    const info = await first.load();
    expect(host.fetched).toEqual([url]);
    expect(info).toMatchObject({ from: 'network', bytes: model.length });
    const downloads = progress.filter((p) => p.phase === 'download');
    expect(downloads[0]).toEqual({ phase: 'download', loaded: 0, total: model.length });
    expect(downloads.at(-1)).toEqual({ phase: 'download', loaded: model.length, total: model.length });
    const loaded = downloads.map((p) => p.loaded);
    expect(loaded).toEqual([...loaded].sort((a, b) => a - b));
    expect(progress.slice(downloads.length).map((p) => p.phase)).toEqual(['load', 'ready']);
    expect(progress[downloads.length]).toEqual({ phase: 'load', bytes: model.length, from: 'network' });
    expect(await isLocalModelCached(url)).toBe(true);
    await first.unload();

    const second = createLocalEngine(config, { fetch: host.fetch });
    expect(await second.load()).toMatchObject({ from: 'cache', bytes: model.length });
    expect(host.fetched).toHaveLength(1);
    const events = [];
    for await (const event of second.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] })) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'finish' });
    await second.unload();
  }, 30_000);

  test('the page can download (with progress) ahead of the engine; later calls read the cache', async () => {
    const host = modelHost();
    const url = modelUrl();
    host.routes.set(url, serveBytes(model));
    const seen: LocalModelProgress[] = [];
    const blob = await downloadLocalModel(url, { fetch: host.fetch, onProgress: (p) => seen.push(p) });
    expect(blob.size).toBe(model.length);
    expect(seen.at(-1)).toEqual({ phase: 'download', loaded: model.length, total: model.length });
    expect((await downloadLocalModel(url, { fetch: host.fetch })).size).toBe(model.length);
    expect(host.fetched).toHaveLength(1);
    // Cache Storage is shared by the page and its workers: the key is the absolute URL.
    const cached = await (await caches.open(MODEL_CACHE_NAME)).match(url);
    expect(cached?.headers.get('content-length')).toBe(String(model.length));
  });

  test("with the browser's own fetch: a Blob URL downloads, and is not cached (Cache Storage keys only http URLs)", async () => {
    const url = URL.createObjectURL(new Blob([model]));
    try {
      const seen: LocalModelProgress[] = [];
      expect((await downloadLocalModel(url, { onProgress: (p) => seen.push(p) })).size).toBe(model.length);
      expect(seen.at(-1)).toEqual({ phase: 'download', loaded: model.length, total: model.length });
      expect(await isLocalModelCached(url)).toBe(false);
    } finally {
      URL.revokeObjectURL(url);
    }
  });

  test('cache: false downloads every time and stores nothing', async () => {
    const host = modelHost();
    const url = modelUrl();
    host.routes.set(url, serveBytes(model));
    await downloadLocalModel(url, { fetch: host.fetch, cache: false });
    await downloadLocalModel(url, { fetch: host.fetch, cache: false });
    expect(host.fetched).toHaveLength(2);
    expect(await isLocalModelCached(url)).toBe(false);
  });

  test('a cached copy that no longer checks out is dropped and downloaded again', async () => {
    const host = modelHost();
    const url = modelUrl();
    host.routes.set(url, serveBytes(model));
    await (await caches.open(MODEL_CACHE_NAME)).put(url, new Response(model.slice(0, 1000)));
    expect((await downloadLocalModel(url, { fetch: host.fetch })).size).toBe(model.length);
    expect(host.fetched).toHaveLength(1);
    expect((await (await (await caches.open(MODEL_CACHE_NAME)).match(url))!.blob()).size).toBe(model.length);
  });
});

describe('failed downloads leave nothing in the cache', () => {
  test('an HTTP error (404) is download_failed with its status; the next try after a fix succeeds', async () => {
    const host = modelHost();
    const url = modelUrl();
    const engine = createLocalEngine(localModel({ source: url, threads: 1 }), { fetch: host.fetch });
    let failure: unknown;
    await engine.load().catch((error: unknown) => (failure = error));
    expect(failure).toMatchObject({ code: 'download_failed', status: 404 });
    expect((failure as Error).message).toMatch(/HTTP 404/);
    expect(await isLocalModelCached(url)).toBe(false);

    host.routes.set(url, serveBytes(model));
    expect(await engine.load()).toMatchObject({ from: 'network' });
    await engine.unload();
  }, 30_000);

  test('a connection that breaks half-way is download_failed', async () => {
    const host = modelHost();
    const url = modelUrl();
    host.routes.set(url, serveCut(model, model.length / 2, 'error'));
    expect(await code(downloadLocalModel(url, { fetch: host.fetch }))).toBe('download_failed');
    expect(await isLocalModelCached(url)).toBe(false);
  });

  test('a body that ends before its content-length is download_failed', async () => {
    const host = modelHost();
    const url = modelUrl();
    host.routes.set(url, serveCut(model, 10_000, 'end'));
    let message = '';
    await downloadLocalModel(url, { fetch: host.fetch }).catch((error: Error) => (message = error.message));
    expect(message).toMatch(/ended after 10000 of \d+ bytes/);
    expect(await isLocalModelCached(url)).toBe(false);
  });

  test('a served file that is not GGUF (an HTML page) is not_gguf, saying the URL returned a web page', async () => {
    const host = modelHost();
    const url = modelUrl();
    host.routes.set(url, () => new Response('<!doctype html><title>Sign in</title>', { headers: { 'content-type': 'text/html' } }));
    expect(await code(downloadLocalModel(url, { fetch: host.fetch }))).toBe('not_gguf');
    const message = await downloadLocalModel(url, { fetch: host.fetch }).then(String, (error: Error) => error.message);
    expect(message).toContain('The URL returned a web page, not a model');
    expect(await isLocalModelCached(url)).toBe(false);
  });

  test('a served file that is a cut GGUF is truncated_model', async () => {
    const host = modelHost();
    const url = modelUrl();
    host.routes.set(url, serveBytes(model.slice(0, model.length - 5_000)));
    expect(await code(downloadLocalModel(url, { fetch: host.fetch }))).toBe('truncated_model');
    expect(await isLocalModelCached(url)).toBe(false);
  });

  test('an abort mid-download is aborted', async () => {
    const host = modelHost();
    const url = modelUrl();
    host.routes.set(url, serveCut(model, 50_000, 'stall'));
    const controller = new AbortController();
    const downloading = downloadLocalModel(url, { fetch: host.fetch, signal: controller.signal });
    // The body sent part of the file and then stalls: only the abort ends it.
    setTimeout(() => controller.abort(new Error('user cancelled')), 50);
    expect(await code(downloading)).toBe('aborted');
    expect(await isLocalModelCached(url)).toBe(false);
  });

  test('a host that cannot be reached is download_failed', async () => {
    const url = modelUrl();
    const unreachable: typeof fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    let failure: unknown;
    await downloadLocalModel(url, { fetch: unreachable }).catch((error: unknown) => (failure = error));
    expect(failure).toMatchObject({ code: 'download_failed', status: undefined });
    expect((failure as Error).message).toMatch(/Failed to fetch/);
  });
});

describe('a Cache Storage that refuses to open (private modes throw SecurityError)', () => {
  /** Run `body` while `caches.open` rejects as a private window's does. */
  async function withRefusedCache(body: () => Promise<void>): Promise<void> {
    caches.open = () => Promise.reject(new DOMException('The operation is insecure.', 'SecurityError'));
    try {
      await body();
    } finally {
      delete (caches as { open?: unknown }).open;
    }
  }

  test('only means no cache: every download goes to the network and succeeds, and nothing is cached', async () => {
    const host = modelHost();
    const url = modelUrl();
    host.routes.set(url, serveBytes(model));
    await withRefusedCache(async () => {
      expect((await downloadLocalModel(url, { fetch: host.fetch })).size).toBe(model.length);
      expect((await downloadLocalModel(url, { fetch: host.fetch })).size).toBe(model.length);
      expect(host.fetched).toHaveLength(2);
      expect(await isLocalModelCached(url)).toBe(false);
    });
  });

  test('deleting a cached model is storage_unavailable (the copy may still be there)', async () => {
    await withRefusedCache(async () => {
      expect(await code(deleteCachedLocalModel(modelUrl()))).toBe('storage_unavailable');
    });
  });
});
