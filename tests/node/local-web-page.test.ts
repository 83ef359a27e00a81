// A model URL that answers with a web page (a dev server's index.html for a missing file, a
// sign-in page) is `not_gguf`, and the message says what happened in the words a person
// would use: the URL returned a web page, not a model.
import { describe, expect, test } from 'vitest';
import { inspectGguf, looksLikeWebPage } from '../../src/engines/local/gguf.js';
import { downloadLocalModel, isAmbiError } from '../../src/index.js';
import type { LocalModelError } from '../../src/extend/index.js';
import { tinyGguf } from '../support/tiny-gguf.js';

const page = '<!doctype html><html><head><title>My app</title></head><body><div id="app"></div></body></html>';

async function failure(promise: Promise<unknown>): Promise<LocalModelError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isAmbiError(error)) throw new Error(`expected a coded error, got ${String(error)}`);
  return error as LocalModelError;
}

/** A fetch that answers every request with `body` and `headers`. */
const serving =
  (body: BodyInit, headers: Record<string, string> = {}): typeof fetch =>
  async () =>
    new Response(body, { headers });

describe('a model URL that returns a web page', () => {
  test('served as text/html: not_gguf, "the URL returned a web page, not a model", naming the URL', async () => {
    const url = 'http://127.0.0.1:5173/models/missing.gguf';
    const error = await failure(downloadLocalModel(url, { fetch: serving(page, { 'content-type': 'text/html; charset=utf-8' }), cache: false }));
    expect(error.code).toBe('not_gguf');
    expect(error.message).toContain('The URL returned a web page, not a model');
    expect(error.message).toContain(url);
  });

  test('served with another content type, recognised by its first bytes', async () => {
    const error = await failure(
      downloadLocalModel('http://127.0.0.1:5173/m.gguf', { fetch: serving(`\uFEFF\n  ${page}`, { 'content-type': 'application/octet-stream' }), cache: false }),
    );
    expect(error.code).toBe('not_gguf');
    expect(error.message).toContain('The URL returned a web page, not a model');
  });

  test('keeps the secrets of a signed URL out of the message', async () => {
    const error = await failure(
      downloadLocalModel('https://cdn.example.com/m.gguf?sig=s3cr3t', { fetch: serving(page, { 'content-type': 'text/html' }), cache: false }),
    );
    expect(error.message).toContain('https://cdn.example.com/m.gguf?sig=***');
    expect(error.message).not.toContain('s3cr3t');
  });

  test('a picked file that is a web page says so too', async () => {
    const error = await failure(inspectGguf(new Blob([page])));
    expect(error.code).toBe('not_gguf');
    expect(error.message).toContain('a web page (HTML), not a GGUF model');
  });

  test('a real model, and bytes that are neither, are not taken for a page', () => {
    expect(looksLikeWebPage(tinyGguf().slice(0, 64))).toBe(false);
    expect(looksLikeWebPage(new TextEncoder().encode('< 3 is less'))).toBe(false);
    expect(looksLikeWebPage(new TextEncoder().encode('<?xml version="1.0"?>'))).toBe(true);
    expect(looksLikeWebPage(new Uint8Array())).toBe(false);
  });
});
