// The OpenAI-compatible engine and model downloads under Chromium's own fetch and streams.
import { describe, expect, test } from 'vitest';
import { downloadLocalModel, openAICompatible } from '../../src/index.js';
import { createEngine, type EngineEvent } from '../../src/extend/index.js';
import { everyText } from '../support/error-text.js';

const SECRET = 'sk-live-0123456789abcdef';

async function failureOf(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

async function collect(events: AsyncIterable<EngineEvent>): Promise<EngineEvent[]> {
  const seen: EngineEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

const request = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };

describe('secrets in URLs, under Chromium', () => {
  test('a network error of the OpenAI-compatible engine shows no query value', async () => {
    const engine = createEngine(openAICompatible({ baseURL: `http://127.0.0.1:1/v1?api-key=${SECRET}`, model: 'm', maxRetries: 0 }));
    const error = await failureOf(collect(engine.stream(request)));
    expect(error.code).toBe('network_error');
    expect(error.message).toContain('127.0.0.1:1/v1/chat/completions?api-key=***');
    expect(everyText(error)).not.toContain(SECRET);
  });

  test('a model URL with user-info fails its download without showing them', async () => {
    const error = await failureOf(downloadLocalModel(`http://alice:${SECRET}@127.0.0.1:1/model.gguf?sig=${SECRET}`));
    expect(error.code).toBe('download_failed');
    expect(error.message).toContain('127.0.0.1:1/model.gguf?sig=***');
    expect(everyText(error)).not.toContain(SECRET);
    expect(everyText(error)).not.toContain('alice');
  });
});

describe('a stream held open after the finish, under Chromium', () => {
  test('the answer comes back and the body is cancelled', async () => {
    let cancelled = false;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode('data: {"choices":[{"index":0,"delta":{"content":"Hello"}}]}\n\n'));
        controller.enqueue(encoder.encode('data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'));
        // Never closed: the server holds the connection open.
      },
      cancel() {
        cancelled = true;
      },
    });
    const held: typeof fetch = async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    const engine = createEngine(openAICompatible({ baseURL: 'http://127.0.0.1:9/v1', model: 'm' }), { fetch: held });
    const events = await collect(engine.stream(request));
    expect(events).toEqual([
      { type: 'text', text: 'Hello' },
      { type: 'finish', reason: 'stop' },
    ]);
    expect(cancelled).toBe(true);
  });
});
