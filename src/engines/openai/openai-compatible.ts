import { EngineError } from '../../errors/engine-error.js';
import { resolveURL } from '../realm-url.js';
import { redactURL } from '../url-redact.js';
import type { PartKinds } from '../../core/parts.js';

/** What `openAICompatible` accepts. Plain data only: the config crosses to a Web Worker. */
export interface OpenAICompatibleOptions {
  /**
   * The API root, e.g. `https://api.openai.com/v1`; `/chat/completions` is appended (a query string is kept).
   * A relative root (`/api/v1`) is resolved here, against the page's (or worker's) location.
   */
  baseURL: string;
  model: string;
  /** Sent as `Authorization: Bearer …`. Leave it out for servers that need none, or put another scheme in `headers`. */
  apiKey?: string;
  /** True (default): tools travel in `tools` and calls come back as `tool_calls`. False: the runner parses calls from text. */
  nativeTools?: boolean;
  /** Set over the defaults, whatever the case of a name (so `Authorization` here replaces the bearer key). */
  headers?: Record<string, string>;
  temperature?: number;
  /** Sent as `max_tokens`. */
  maxTokens?: number;
  /** Spread into the request body last: it can add fields or override any (a key set to `undefined` is dropped). */
  extraBody?: Record<string, unknown>;
  /** Retries after a 429 or a 5xx, only before any output (a server that never answered is not retried). Default 2. */
  maxRetries?: number;
  /**
   * Longest silence allowed, in ms: waiting for the response, and between two pieces of the
   * stream; past it the request fails with `timeout`. Default 60 000 (a local server loading a
   * model may be slow to start); `Infinity` waits for ever.
   */
  timeoutMs?: number;
  /**
   * Send a run's `output` schema as `response_format: { type: 'json_schema', … }` on answering
   * turns (see `requestBody`); `{ strict }` sets `json_schema.strict`. Default false: the schema is
   * only taught in the system prompt, and the answer validated.
   */
  structuredOutputs?: boolean | { strict?: boolean };
  /**
   * The parts beyond text the model takes. Default `{ image: true }`: images go as `image_url`
   * parts (a server whose model sees none answers with its own error). `file: true` also sends
   * files: WAV and MP3 as `input_audio`, others (PDFs) as `file` parts, as OpenAI takes them.
   * `{}`: a text-only model; a person's image then fails `unsupported_content` before any request.
   */
  accepts?: PartKinds;
}

/** What an OpenAI-compatible model takes when its config does not say (`accepts`). */
export const DEFAULT_OPENAI_ACCEPTS: PartKinds = { image: true };

/** The default idle timeout of `openAICompatible` (`timeoutMs`). */
export const DEFAULT_OPENAI_TIMEOUT_MS = 60_000;

/** A plain-data description of an OpenAI-compatible endpoint (`/chat/completions` with SSE streaming). */
export interface OpenAICompatibleConfig extends Omit<OpenAICompatibleOptions, 'nativeTools' | 'maxRetries'> {
  kind: 'openai-compatible';
  nativeTools: boolean;
  maxRetries: number;
}

/**
 * Describe an OpenAI-compatible model endpoint; defaults are filled so the config reads the same everywhere.
 * `baseURL` is the API root that `/chat/completions` is appended to: it usually ends in `/v1`.
 *
 * @example
 * ```ts
 * import { createWorkerRunner, openAICompatible } from 'ambi-web/worker';
 *
 * const local = openAICompatible({ baseURL: 'http://localhost:11434/v1', model: 'qwen2.5:7b' }); // Ollama
 * const hosted = openAICompatible({
 *   baseURL: 'https://api.openai.com/v1',
 *   model: 'gpt-4o-mini',
 *   apiKey: sessionStorage.getItem('openai-key') ?? '', // never in the URL: a user name or password there is refused
 *   timeoutMs: 30_000, // the longest silence, before the response and between pieces of the stream
 * });
 * const runner = createWorkerRunner({ engine: navigator.onLine ? hosted : local });
 * console.log((await runner.run('Hello!').result).text);
 * ```
 */
export function openAICompatible(options: OpenAICompatibleOptions): OpenAICompatibleConfig {
  if (typeof options.baseURL !== 'string' || options.baseURL.trim() === '') {
    throw new EngineError('invalid_engine_config', 'openAICompatible: `baseURL` is required');
  }
  const baseURL = checkedBaseURL(options.baseURL.trim());
  if (typeof options.model !== 'string' || options.model.trim() === '') {
    throw new EngineError('invalid_engine_config', 'openAICompatible: `model` is required');
  }
  const maxRetries = options.maxRetries ?? 2;
  if (!Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new EngineError('invalid_engine_config', 'openAICompatible: `maxRetries` must be a whole number >= 0');
  }
  const timeoutMs = options.timeoutMs ?? DEFAULT_OPENAI_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) {
    throw new EngineError('invalid_engine_config', 'openAICompatible: `timeoutMs` must be a number of milliseconds > 0 (Infinity: no limit)');
  }
  const so = options.structuredOutputs;
  if (so !== undefined && typeof so !== 'boolean' && !(typeof so === 'object' && so !== null && (so.strict === undefined || typeof so.strict === 'boolean'))) {
    throw new EngineError('invalid_engine_config', 'openAICompatible: `structuredOutputs` must be a boolean or `{ strict?: boolean }`');
  }
  const accepts = options.accepts;
  if (accepts !== undefined && !isPartKinds(accepts)) {
    throw new EngineError('invalid_engine_config', 'openAICompatible: `accepts` must be `{ image?: boolean, file?: boolean }`');
  }
  // Resolved where the config is made, so a worker it is posted to calls the same server.
  return { ...options, baseURL: baseURL.href, kind: 'openai-compatible', nativeTools: options.nativeTools ?? true, maxRetries, timeoutMs };
}

/**
 * `baseURL` resolved against this realm's location, or the config error saying why it cannot
 * be used: it is not a URL (or is relative where there is no location), or it holds a user name
 * or password, which fetch refuses to send. Messages show the URL without its secrets.
 */
export function checkedBaseURL(baseURL: string): URL {
  const url = resolveURL(baseURL);
  if (!url) {
    throw new EngineError(
      'invalid_engine_config',
      `openAICompatible: \`baseURL\` ${JSON.stringify(redactURL(baseURL))} is not a URL, or is relative where there is no page location to resolve it against`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    url.username = '';
    url.password = '';
    throw new EngineError(
      'invalid_engine_config',
      `openAICompatible: \`baseURL\` must not hold a user name or password (fetch refuses such a URL): give the key as \`apiKey\` or in \`headers\`, and the URL as ${redactURL(url.href)}`,
    );
  }
  return url;
}

/** Whether `value` is `{ image?: boolean, file?: boolean }` and nothing else. */
function isPartKinds(value: unknown): value is PartKinds {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.entries(value).every(([key, flag]) => (key === 'image' || key === 'file') && typeof flag === 'boolean');
}
