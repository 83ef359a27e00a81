import { EngineError } from '../../errors/engine-error.js';
import { EngineHttpError } from '../../errors/engine-http-error.js';
import { sleep } from '../abort.js';
import { redactURL } from '../url-redact.js';
import { startLifetime, type RequestLifetime } from './request-lifetime.js';
import { notFoundHint } from './not-found-hint.js';
import { serverMessageFromText } from './server-message.js';

/** The longest server-requested wait we honour; a longer Retry-After is cut to this. */
export const MAX_RETRY_AFTER_MS = 60_000;
const BACKOFF_BASE_MS = 500;
const BACKOFF_MAX_MS = 8_000;

/** What one POST needs besides its URL and body. */
export interface PostOptions {
  fetch: typeof fetch;
  maxRetries: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The model asked for: a 404 that says it is missing names it. */
  model?: string;
}

/** A 2xx response, with the lifetime that still guards the reading of its body. */
export interface OpenResponse {
  response: Response;
  lifetime: RequestLifetime;
}

/**
 * POST until a 2xx arrives. A 429 or 5xx is retried up to `maxRetries` times: nothing has
 * been streamed yet, so a retry cannot duplicate output. A failure before any response
 * (refused connection, CORS, DNS, a server silent past the timeout) is not: it would fail
 * the same way, and retrying only delays the error that says what to check.
 */
export async function postWithRetries(url: string, init: RequestInit, options: PostOptions): Promise<OpenResponse> {
  for (let attempt = 0; ; attempt++) {
    const failure = await attemptOnce(url, init, options);
    if (!(failure instanceof EngineError)) return failure;
    if (failure.code === 'aborted' || attempt >= options.maxRetries || !isRetryable(failure)) throw failure;
    await sleep(retryDelayMs(failure, attempt), options.signal);
  }
}

async function attemptOnce(url: string, init: RequestInit, options: PostOptions): Promise<OpenResponse | EngineError> {
  const lifetime = startLifetime(options.signal, options.timeoutMs);
  try {
    const response = await options.fetch(url, { ...init, signal: lifetime.signal });
    lifetime.touch();
    if (response.ok) return { response, lifetime };
    const error = await httpError(response, init.method ?? 'POST', url, options.model);
    lifetime.dispose();
    return error;
  } catch (error) {
    lifetime.dispose();
    return lifetime.explain(error, (cause) => networkError(url, cause));
  }
}

/** 429 and 5xx may pass on their own; 4xx such as 400, 401, 404 will not, nor a server that never answered. */
function isRetryable(error: EngineError): boolean {
  return error instanceof EngineHttpError && (error.status === 429 || error.status >= 500);
}

/** The server's Retry-After (capped), else exponential backoff with jitter. */
function retryDelayMs(error: EngineError, attempt: number): number {
  if (error instanceof EngineHttpError && error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, MAX_RETRY_AFTER_MS);
  const backoff = Math.min(BACKOFF_BASE_MS * 2 ** attempt, BACKOFF_MAX_MS);
  return backoff * (0.75 + Math.random() * 0.25);
}

/**
 * A non-2xx response as a coded error carrying the status, the request (method and URL, its
 * secrets redacted) and the server's own message. A 404 gets a hint of its likely cause: a model
 * not pulled (Ollama), or a `baseURL` without its `/v1` (`not-found-hint.ts`).
 */
async function httpError(response: Response, method: string, url: string, model: string | undefined): Promise<EngineHttpError> {
  const text = await response.text().catch(() => '');
  const detail = text.trim() === '' ? response.statusText : serverMessageFromText(text);
  const hint = response.status === 404 ? notFoundHint(url, detail, model) : '';
  const message = `The model server answered ${response.status} to ${redactURL(`${method} ${url}`)}${detail ? `: ${detail}` : ''}.${hint}`;
  return new EngineHttpError(response.status, message, retryAfterMs(response.headers));
}

/**
 * Retry-After as milliseconds: `retry-after-ms` (OpenAI, Azure), else `retry-after` in
 * seconds or as an HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * No response at all. A browser says only "Failed to fetch" for a server that is down, a
 * wrong address and a CORS refusal alike, so the message names all three, with the origin
 * the server must allow. The URL is quoted as it is: the engine redacts every error that
 * leaves it (user-info, query values; engine.ts `withoutSecrets`).
 */
function networkError(url: string, cause: unknown): EngineError {
  const origin = pageOrigin();
  const cors = origin ? `, or it does not allow CORS requests from this page's origin (${origin}); for Ollama, set OLLAMA_ORIGINS=${origin}` : '';
  return new EngineError(
    'network_error',
    `Could not reach the model server at ${url}: ${describe(cause)}. Check that the server is running and that the URL is right${cors}`,
    { cause },
  );
}

/** The origin a browser sends (a worker has its page's); none in Node. */
function pageOrigin(): string | undefined {
  const origin = (globalThis as { location?: { origin?: unknown } }).location?.origin;
  return typeof origin === 'string' && origin !== 'null' ? origin : undefined;
}

/** fetch's errors say "fetch failed"; the useful part (ECONNREFUSED, DNS) is in `cause`. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner = error.cause instanceof Error ? error.cause.message : undefined;
  return inner && inner !== error.message ? `${error.message} (${inner})` : error.message;
}
