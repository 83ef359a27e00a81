import { EngineError } from '../errors/engine-error.js';
import type { Engine, EngineEvent, EngineRequest } from './types.js';
import { throwIfAborted } from './abort.js';
import type { OpenAICompatibleConfig } from './openai-compatible.js';
import { postWithRetries } from './openai-http.js';
import { chatCompletionsURL, requestBody, requestHeaders } from './openai-request.js';
import { decodeCompletion, decodeStream } from './openai-stream.js';
import type { RequestLifetime } from './request-lifetime.js';
import { readSse } from './sse-reader.js';

/** An Engine that streams from an OpenAI-compatible `/chat/completions` endpoint. */
export function createOpenAICompatibleEngine(config: OpenAICompatibleConfig, fetchImpl: typeof fetch): Engine {
  return {
    nativeTools: config.nativeTools,
    stream: (request) => streamChat(config, fetchImpl, request),
  };
}

async function* streamChat(config: OpenAICompatibleConfig, fetchImpl: typeof fetch, request: EngineRequest): AsyncGenerator<EngineEvent> {
  throwIfAborted(request.signal);
  const url = chatCompletionsURL(config.baseURL);
  const init: RequestInit = {
    method: 'POST',
    headers: requestHeaders(config),
    body: JSON.stringify(requestBody(config, request)),
  };
  const { response, lifetime } = await postWithRetries(url, init, {
    fetch: fetchImpl,
    maxRetries: config.maxRetries,
    timeoutMs: config.timeoutMs,
    signal: request.signal,
  });
  try {
    yield* decodeResponse(response, lifetime);
  } finally {
    lifetime.dispose();
  }
}

function decodeResponse(response: Response, lifetime: RequestLifetime): AsyncIterable<EngineEvent> {
  const explain = (error: unknown) => lifetime.explain(error, cutByNetwork);
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('application/json')) return decodeJsonBody(response, explain);
  if (!response.body) throw new EngineError('stream_cut', 'The model server answered with an empty body');
  return decodeStream(readSse(response.body, { onActivity: lifetime.touch, explain }));
}

/** Some servers and proxies ignore `stream: true` and answer with one JSON completion. */
async function* decodeJsonBody(response: Response, explain: (error: unknown) => Error): AsyncGenerator<EngineEvent> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw explain(error);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    throw new EngineError('malformed_stream', 'The model server sent a JSON content type with a body that is not JSON', { cause });
  }
  yield* decodeCompletion(body);
}

function cutByNetwork(cause: unknown): EngineError {
  return new EngineError('stream_cut', 'The connection to the model server broke mid-stream', { cause });
}
