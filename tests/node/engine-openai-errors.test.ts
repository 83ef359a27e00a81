import { describe, expect, it } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import { EngineHttpError } from '../../src/errors/engine-http-error.js';
import { createEngine } from '../../src/engines/create-engine.js';
import { openAICompatible } from '../../src/engines/openai/openai-compatible.js';
import type { EngineEvent } from '../../src/engines/types.js';
import { closedPort, collect, rejection, request, textOf, useSseServer } from './engine-test-helpers.js';
import { chunk, DONE, errorReply, textStream } from './sse-server.js';

const local = useSseServer();
const { engineFor } = local;

describe('OpenAI-compatible engine: HTTP errors and retries', () => {
  it('rejects a 401 with its status and the server message, without retrying', async () => {
    const engine = await engineFor(() => errorReply(401, 'Incorrect API key provided'));
    const error = await rejection(collect(engine));
    expect(error).toBeInstanceOf(EngineHttpError);
    expect(isAmbiError(error, 'http_error')).toBe(true);
    expect(error.status).toBe(401);
    expect(error.message).toContain('Incorrect API key provided');
    expect(local.server.requests).toHaveLength(1);
  });

  it.each([400, 404])('never retries a %i', async (status) => {
    const engine = await engineFor(() => errorReply(status, 'nope'));
    expect((await rejection(collect(engine))).status).toBe(status);
    expect(local.server.requests).toHaveLength(1);
  });

  it('names the method and the URL it asked, and for a 404 asks whether baseURL ends in /v1', async () => {
    const server = await local.start(() => errorReply(404, 'page not found'));
    const root = server.baseURL.replace(/\/v1\/?$/, ''); // the mistake: the server's root, without /v1
    const engine = createEngine(openAICompatible({ baseURL: root, model: 'm' }));
    const error = await rejection(collect(engine));
    expect(error.status).toBe(404);
    expect(error.message).toContain(`404 to POST ${root}/chat/completions`);
    expect(error.message).toContain('page not found');
    expect(error.message).toContain('Does `baseURL` end in `/v1`?');
  });

  it('does not ask about /v1 when baseURL ends in /v1 (or another version)', async () => {
    const engine = await engineFor(() => errorReply(404, 'page not found'));
    const error = await rejection(collect(engine));
    expect(error.message).toContain('page not found');
    expect(error.message).not.toContain('/v1`?');
    const versioned = createEngine(openAICompatible({ baseURL: `${local.server.baseURL.replace(/\/v1\/?$/, '')}/v1beta/openai`, model: 'm' }));
    expect((await rejection(collect(versioned))).message).not.toContain('/v1`?');
  });

  it("names `ollama pull` and the model for Ollama's 404 of a model it does not have", async () => {
    // Ollama's OpenAI-compatible endpoint, for a model never pulled: its own words, in OpenAI's error shape.
    const engine = await engineFor(() => errorReply(404, 'model "qwen2.5:7b" not found, try pulling it first'), { model: 'qwen2.5:7b' });
    const error = await rejection(collect(engine));
    expect(error.status).toBe(404);
    expect(error.message).toContain('model "qwen2.5:7b" not found');
    expect(error.message).toContain('`ollama pull qwen2.5:7b`');
    expect(error.message).not.toContain('/v1`?');
    // Its native error shape ({ error: "…" }), at a root without /v1, says the same and not the /v1 question.
    const server = await local.start(() => ({
      status: 404,
      headers: { 'content-type': 'application/json' },
      pieces: [JSON.stringify({ error: "model 'llama3' not found, try pulling it first" })],
    }));
    const bare = createEngine(openAICompatible({ baseURL: server.baseURL.replace(/\/v1\/?$/, ''), model: 'llama3' }));
    const native = await rejection(collect(bare));
    expect(native.message).toContain('`ollama pull llama3`');
    expect(native.message).not.toContain('/v1`?');
  });

  it('never pastes a model name that is not one into the `ollama pull` line', async () => {
    const engine = await engineFor(() => errorReply(404, 'model not found'), { model: 'x; rm -rf ~' });
    expect((await rejection(collect(engine))).message).toContain('`ollama pull <model>`');
  });

  it('shows the URL of a failed request without its secrets', async () => {
    const server = await local.start(() => errorReply(404, 'nope'));
    const engine = createEngine(openAICompatible({ baseURL: `${server.baseURL}?deployment=secret-deployment-name`, model: 'm' }));
    const error = await rejection(collect(engine));
    expect(error.message).toContain('/chat/completions?deployment=***');
    expect(error.message).not.toContain('secret-deployment-name');
  });

  it('asks about /v1 only for a 404', async () => {
    const engine = await engineFor(() => errorReply(401, 'Incorrect API key provided'));
    const error = await rejection(collect(engine));
    expect(error.message).toMatch(/^The model server answered 401 to POST http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: Incorrect API key provided\.$/);
  });

  it('quotes a plain-text error body when it is not JSON', async () => {
    const engine = await engineFor(() => ({ status: 502, headers: { 'content-type': 'text/plain' }, pieces: ['upstream exploded'] }), { maxRetries: 0 });
    const error = await rejection(collect(engine));
    expect(error.status).toBe(502);
    expect(error.message).toContain('upstream exploded');
  });

  it('retries a 429 after its Retry-After, then streams the answer', async () => {
    const engine = await engineFor((_req, n) => (n === 0 ? errorReply(429, 'Slow down', { 'retry-after': '0' }) : { pieces: textStream('fine') }));
    expect(textOf(await collect(engine))).toBe('fine');
    expect(local.server.requests).toHaveLength(2);
  });

  it('gives up with the 429 once maxRetries is exhausted', async () => {
    const engine = await engineFor(() => errorReply(429, 'Rate limit reached', { 'retry-after': '0' }), { maxRetries: 2 });
    const error = await rejection(collect(engine));
    expect(error.status).toBe(429);
    expect(error.message).toContain('Rate limit reached');
    expect(error.retryAfterMs).toBe(0);
    expect(local.server.requests).toHaveLength(3);
  });

  it('retries a 500, then streams the answer', async () => {
    const engine = await engineFor((_req, n) => (n === 0 ? errorReply(500, 'boom', { 'retry-after-ms': '1' }) : { pieces: textStream('recovered') }));
    expect(textOf(await collect(engine))).toBe('recovered');
    expect(local.server.requests).toHaveLength(2);
  });

  it('rejects with network_error when nothing listens at the address', async () => {
    const port = await closedPort();
    const engine = createEngine(openAICompatible({ baseURL: `http://127.0.0.1:${port}/v1`, model: 'm', maxRetries: 0 }));
    const error = await rejection(collect(engine));
    expect(error.code).toBe('network_error');
    expect(error.message).toContain(`127.0.0.1:${port}`);
  });
});

describe('OpenAI-compatible engine: broken streams', () => {
  it('rejects with stream_cut when the server destroys the socket mid-stream, and does not retry', async () => {
    const engine = await engineFor(() => ({ pieces: [chunk({ content: 'Hel' }), chunk({ content: 'lo' })], then: 'cut' }));
    const seen: EngineEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of engine.stream(request())) seen.push(event);
      })(),
    );
    expect(error.code).toBe('stream_cut');
    expect(textOf(seen)).toBe('Hello');
    expect(local.server.requests).toHaveLength(1);
  });

  it('rejects with stream_cut when the stream ends cleanly with no finish_reason and no [DONE]', async () => {
    const engine = await engineFor(() => ({ pieces: [chunk({ content: 'partial' })] }));
    expect((await rejection(collect(engine))).code).toBe('stream_cut');
  });

  it('rejects with stream_cut when the stream ends inside an event', async () => {
    const engine = await engineFor(() => ({ pieces: [chunk({ content: 'a' }), 'data: {"choices":[{"delta":{"con'] }));
    expect((await rejection(collect(engine))).code).toBe('stream_cut');
  });

  it('accepts a stream that just closes after its finish_reason', async () => {
    const engine = await engineFor(() => ({ pieces: [chunk({ content: 'done' }, 'stop')] }));
    expect((await collect(engine)).at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it.each([
    [
      'an HTML page',
      'text/html',
      '<!doctype html>\n<html><head><title>Sign in to the proxy</title></head>\n<body>Please sign in</body></html>\n',
      'Sign in to the proxy',
    ],
    ['plain text', 'text/plain', 'Service is starting, try again later', 'Service is starting'],
    ['plain text sent as SSE', 'text/event-stream', 'upstream connect error or disconnect/reset before headers\n', 'upstream connect error'],
  ])('rejects a 200 body that is %s (neither SSE nor JSON) with malformed_stream quoting it', async (_what, type, body, quoted) => {
    const engine = await engineFor(() => ({ headers: { 'content-type': type }, pieces: [body] }));
    const error = await rejection(collect(engine));
    expect(error.code).toBe('malformed_stream');
    expect(error.message).toContain(quoted);
    expect(local.server.requests).toHaveLength(1);
  });

  it('rejects a data line that is not JSON with malformed_stream naming the line', async () => {
    const engine = await engineFor(() => ({ pieces: [chunk({ content: 'a' }), 'data: {oops this is not json}\n\n', chunk({}, 'stop')] }));
    const error = await rejection(collect(engine));
    expect(error.code).toBe('malformed_stream');
    expect(error.message).toContain('{oops this is not json}');
  });

  it('rejects a JSON error chunk mid-stream with stream_error and the server message', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ content: 'a' }),
        'data: {"error":{"code":502,"message":"Provider returned error"},"choices":[{"index":0,"delta":{},"finish_reason":"error"}]}\n\n',
      ],
    }));
    const error = await rejection(collect(engine));
    expect(error.code).toBe('stream_error');
    expect(error.message).toContain('Provider returned error');
  });

  it('rejects an SSE error event with stream_error and the server message', async () => {
    const engine = await engineFor(() => ({ pieces: [chunk({ content: 'a' }), 'event: error\ndata: {"error":{"message":"model overloaded"}}\n\n'] }));
    const error = await rejection(collect(engine));
    expect(error.code).toBe('stream_error');
    expect(error.message).toContain('model overloaded');
  });

  it("rejects llama.cpp's bare `error:` field with stream_error and the server message", async () => {
    const engine = await engineFor(() => ({
      pieces: ['error: {"code":400,"message":"the request exceeds the available context size","type":"invalid_request_error"}\n\n', DONE],
    }));
    const error = await rejection(collect(engine));
    expect(error.code).toBe('stream_error');
    expect(error.message).toContain('exceeds the available context size');
  });
});

describe('OpenAI-compatible engine: abort and timeout', () => {
  it('aborting after the first delta rejects with aborted, keeps the reason, and closes the connection', async () => {
    const engine = await engineFor(() => ({ pieces: [chunk({ content: 'first' })], then: 'hold' }));
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    const seen: EngineEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of engine.stream(request({ signal: controller.signal }))) {
          seen.push(event);
          controller.abort(reason);
        }
      })(),
    );
    expect(error.code).toBe('aborted');
    expect(error.cause).toBe(reason);
    expect(seen).toEqual([{ type: 'text', text: 'first' }]);
    await local.server.clientClosed(0);
  });

  it('an already-aborted signal rejects with aborted and sends nothing', async () => {
    const engine = await engineFor(() => ({ pieces: textStream('x') }));
    const error = await rejection(collect(engine, request({ signal: AbortSignal.abort('gone') })));
    expect(error.code).toBe('aborted');
    expect(error.cause).toBe('gone');
    expect(local.server.requests).toHaveLength(0);
  });

  it('aborting during a Retry-After wait rejects with aborted without another request', async () => {
    const engine = await engineFor(() => errorReply(503, 'busy', { 'retry-after': '30' }));
    const controller = new AbortController();
    const pending = rejection(collect(engine, request({ signal: controller.signal })));
    while (local.server.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
    setTimeout(() => controller.abort(), 20);
    expect((await pending).code).toBe('aborted');
    expect(local.server.requests).toHaveLength(1);
  });

  it('a stream silent for longer than timeoutMs rejects with timeout', async () => {
    const engine = await engineFor(() => ({ pieces: [chunk({ content: 'a' })], then: 'hold' }), { timeoutMs: 150 });
    expect((await rejection(collect(engine))).code).toBe('timeout');
    await local.server.clientClosed(0);
  });
});
