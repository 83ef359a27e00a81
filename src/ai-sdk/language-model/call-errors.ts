// A provider's failures as coded engine errors: an HTTP status is `http_error` (with the status and
// the server's Retry-After), no answer at all `network_error`, a stream the provider could not read
// `malformed_stream`. Only the provider's own words cross, with URLs and anything shaped like an API
// key taken out; the provider's error (its request body, response headers) is not kept.
import { EngineError } from '../../errors/engine-error.js';
import { ContentError } from '../../errors/content-error.js';
import { EngineHttpError } from '../../errors/engine-http-error.js';
import { errorMessage } from '../../errors/error-message.js';
import { abortedError } from '../../engines/abort.js';
import { REDACTED, redactURL } from '../../engines/url-redact.js';

/** What the AI SDK's errors carry (`APICallError`, and its other `AI_*` errors), read structurally. */
interface AiSdkError {
  name?: unknown;
  message?: unknown;
  statusCode?: unknown;
  isRetryable?: unknown;
  responseHeaders?: unknown;
}

/** The marker `APICallError.isInstance` reads, which survives two copies of `@ai-sdk/provider`. */
const API_CALL_ERROR = Symbol.for('vercel.ai.error.AI_APICallError');
/** API keys as providers write them: OpenAI's and Anthropic's `sk-…`, Google's `AIza…` (a 401 may quote one, masked or not). */
const KEY_SHAPES = /\b(?:sk-[A-Za-z0-9_*.-]{5,}[A-Za-z0-9_*]|AIza[0-9A-Za-z_-]{20,}|xai-[A-Za-z0-9_-]{10,}|gsk_[A-Za-z0-9]{10,})/g;
const MAX_MESSAGE = 1000;

/** Whether `error` is the AI SDK's `APICallError`. */
export function isApiCallError(error: unknown): error is AiSdkError {
  return (
    typeof error === 'object' &&
    error !== null &&
    ((error as Record<symbol, unknown>)[API_CALL_ERROR] === true || (error as AiSdkError).name === 'AI_APICallError')
  );
}

/** Whether a failed request may be tried again: the provider says so, and it answered 408, 409, 429 or 5xx (a server that never answered is not retried). */
export function retryable(error: unknown): boolean {
  if (!isApiCallError(error) || error.isRetryable !== true || typeof error.statusCode !== 'number') return false;
  return [408, 409, 429].includes(error.statusCode) || error.statusCode >= 500;
}

/** The wait a failed request's server asked for (`retry-after-ms`, `retry-after` in seconds or as a date), if it named one. */
export function retryAfterMs(error: unknown): number | undefined {
  const headers =
    isApiCallError(error) && typeof error.responseHeaders === 'object' && error.responseHeaders !== null
      ? (error.responseHeaders as Record<string, unknown>)
      : {};
  const ms = Number(headers['retry-after-ms']);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const after = headers['retry-after'];
  if (typeof after !== 'string' || after.trim() === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** `error`, from the model's `doStream` or its stream, as a coded engine error. */
export function engineErrorOf(error: unknown, provider: string, signal: AbortSignal | undefined): EngineError | ContentError {
  if (signal?.aborted) return abortedError(signal);
  // A part the request could not carry (read before anything was sent) keeps its own code.
  if (error instanceof EngineError || error instanceof ContentError) return error;
  const name = typeof error === 'object' && error !== null ? (error as AiSdkError).name : undefined;
  const words = said(error);
  if (name === 'AbortError') return abortedError(signal);
  if (isApiCallError(error)) {
    if (typeof error.statusCode === 'number')
      return new EngineHttpError(error.statusCode, `${provider} answered HTTP ${error.statusCode}: ${words}`, retryAfterMs(error));
    return new EngineError('network_error', `Could not reach ${provider}: ${words}`);
  }
  // A fetch that never reached the server (Chromium: "Failed to fetch"; Node: "fetch failed").
  if (error instanceof TypeError && /fetch|network/i.test(words)) return new EngineError('network_error', `Could not reach ${provider}: ${words}`);
  switch (name) {
    case 'AI_InvalidResponseDataError':
    case 'AI_JSONParseError':
    case 'AI_TypeValidationError':
    case 'AI_EmptyResponseBodyError':
      return new EngineError('malformed_stream', `${provider} sent a reply that could not be read: ${words}`);
    case 'AI_LoadAPIKeyError':
    case 'AI_LoadSettingError':
      return new EngineError('invalid_engine_config', `${provider} is not set up: ${words}`);
    default:
      return new EngineError('engine_error', `${provider} failed: ${words}`);
  }
}

/** What an error says, cut, without URLs' secrets or anything shaped like a key. */
export function said(error: unknown): string {
  return redactURL(errorMessage(error)).replace(KEY_SHAPES, REDACTED).slice(0, MAX_MESSAGE);
}
