import { EngineError } from '../../errors/engine-error.js';
import { parseJsonOr } from '../../parser/parse-json.js';
import { readBodyText, type BodyReadHooks } from './body-text.js';
import type { Engine, EngineEvent, EngineRequest } from '../types.js';
import { throwIfAborted } from '../abort.js';
import { DEFAULT_OPENAI_ACCEPTS, DEFAULT_OPENAI_TIMEOUT_MS, type OpenAICompatibleConfig } from './openai-compatible.js';
import { postWithRetries } from './http.js';
import { chatCompletionsURL, holdsParts, requestHeaders } from './request.js';
import { RequestText } from './request-text.js';
import { decodeCompletion, decodeStream, FINISH_GRACE_MS } from './stream.js';
import type { RequestLifetime } from './request-lifetime.js';
import { readSse } from './sse-reader.js';
import { withoutURLSecrets } from '../url-secrets.js';
import { credentialSecrets } from '../credential-secrets.js';
import { deferredStream } from '../deferred-stream.js';

/** The body of a request whose messages hold parts (see content-parts.ts). */
type PartsBody = (request: EngineRequest) => Promise<string>;

/** An Engine that streams from an OpenAI-compatible `/chat/completions` endpoint. */
export function createOpenAICompatibleEngine(config: OpenAICompatibleConfig, fetchImpl: typeof fetch): Engine {
  // The JSON of the stored messages it sent, for the next request that sends them again.
  const bodies = new RequestText(config);
  // How a request with images or files is written (its encoder keeps each Blob's base64), loaded with the first such request.
  let partsBody: Promise<PartsBody> | undefined;
  const parts = () =>
    (partsBody ??= import('./content-parts.js').then(
      ({ bodyWithParts, PartEncoder }) => {
        const encoder = new PartEncoder();
        return (request) => bodyWithParts(config, request, encoder);
      },
      (error: unknown) => {
        partsBody = undefined; // tried again by the next request with parts
        throw error;
      },
    ));
  return {
    nativeTools: config.nativeTools,
    accepts: config.accepts ?? DEFAULT_OPENAI_ACCEPTS,
    // Its errors redacted on the way out: fetch and servers may quote the URL, the key or a header
    // value in what they say, and an error reaches run events, rejections, cassettes and spans.
    stream: (request) =>
      deferredStream(
        () => streamChat(config, fetchImpl, request, bodies, parts),
        (error) => redacted(error, config),
      ),
  };
}

/** `error` with the config's credentials (the URL's secrets, `apiKey`, header values, and any URL it quotes) taken out. */
function redacted(error: unknown, config: OpenAICompatibleConfig): unknown {
  return withoutURLSecrets(error, credentialSecrets({ url: config.baseURL, apiKey: config.apiKey, headers: config.headers }));
}

async function* streamChat(
  config: OpenAICompatibleConfig,
  fetchImpl: typeof fetch,
  request: EngineRequest,
  bodies: RequestText,
  parts: () => Promise<PartsBody>,
): AsyncGenerator<EngineEvent> {
  throwIfAborted(request.signal);
  const url = chatCompletionsURL(config.baseURL);
  const init: RequestInit = {
    method: 'POST',
    headers: requestHeaders(config),
    // A request with images or files reads their bytes first (once per Blob); any other keeps its cached JSON.
    body: holdsParts(request.messages) ? await (await parts())(request) : bodies.body(request),
  };
  const { response, lifetime } = await postWithRetries(url, init, {
    fetch: fetchImpl,
    maxRetries: config.maxRetries,
    // A config made by hand may lack it; Infinity means no limit (a timer cannot wait that long).
    timeoutMs: Number.isFinite(config.timeoutMs) ? config.timeoutMs : config.timeoutMs === undefined ? DEFAULT_OPENAI_TIMEOUT_MS : undefined,
    signal: request.signal,
    model: config.model,
  });
  try {
    yield* decodeResponse(response, lifetime);
  } finally {
    lifetime.dispose();
  }
}

function decodeResponse(response: Response, lifetime: RequestLifetime): AsyncIterable<EngineEvent> {
  const explain = (error: unknown) => lifetime.explain(error, cutByNetwork);
  const hooks = { onActivity: lifetime.touch, explain };
  const type = response.headers.get('content-type') ?? '';
  if (!response.body) {
    if (type.includes('application/json')) throw notJson();
    throw new EngineError('stream_cut', 'The model server answered with an empty body');
  }
  if (type.includes('application/json')) return decodeJsonBody(response.body, hooks);
  // Fired once the answer is whole, so a server that then holds the connection open cannot keep the run waiting.
  const answered = new AbortController();
  return decodeStream(readSse(response.body, { ...hooks, stop: answered.signal }), { stopReading: () => answered.abort() });
}

/** Some servers and proxies ignore `stream: true` and answer with one JSON completion. */
async function* decodeJsonBody(body: ReadableStream<Uint8Array>, hooks: BodyReadHooks): AsyncGenerator<EngineEvent> {
  // A body that parses is whole, even if the server then keeps the connection open.
  const text = await readBodyText(body, hooks, { quietMs: FINISH_GRACE_MS, complete: (text) => parseJsonOr(text, NOT_JSON) !== NOT_JSON });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw notJson(cause);
  }
  yield* decodeCompletion(parsed);
}

const NOT_JSON = Symbol('not JSON');

function notJson(cause?: unknown): EngineError {
  return new EngineError('malformed_stream', 'The model server sent a JSON content type with a body that is not JSON', { cause });
}

function cutByNetwork(cause: unknown): EngineError {
  return new EngineError('stream_cut', 'The connection to the model server broke mid-stream', { cause });
}
