import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engines/create-engine.js';
import { openAICompatible } from '../../src/engines/openai/openai-compatible.js';
import { callsOf, collect, rejection, textOf, useSseServer } from './engine-test-helpers.js';
import { chunk, DONE, sse } from './sse-server.js';

const local = useSseServer();
const { engineFor } = local;

describe('OpenAI-compatible engine: server dialects', () => {
  it("skips OpenRouter's keep-alive comments", async () => {
    const engine = await engineFor(() => ({
      pieces: [': OPENROUTER PROCESSING\n\n', chunk({ content: 'Hi' }), ': OPENROUTER PROCESSING\n\n', chunk({}, 'stop'), DONE],
    }));
    expect(textOf(await collect(engine))).toBe('Hi');
  });

  it("skips Azure's prompt-filter chunk with empty choices and its filter-only choices", async () => {
    const filters = { hate: { filtered: false, severity: 'safe' } };
    const engine = await engineFor(() => ({
      pieces: [
        sse({ id: '', object: '', created: 0, model: '', choices: [], prompt_filter_results: [{ prompt_index: 0, content_filter_results: filters }] }),
        chunk({ content: 'Safe' }),
        sse({ id: 'x', choices: [{ index: 0, finish_reason: null, content_filter_results: filters }] }),
        chunk({}, 'stop'),
        DONE,
      ],
    }));
    const events = await collect(engine);
    expect(textOf(events)).toBe('Safe');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it("sees llama.cpp's last event even without its blank line", async () => {
    const engine = await engineFor(() => ({ pieces: [chunk({ content: 'x' }), 'data: {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}\n'] }));
    expect((await collect(engine)).at(-1)).toEqual({ type: 'finish', reason: 'length' });
  });

  it("reads Groq's usage from x_groq", async () => {
    const engine = await engineFor(() => ({
      pieces: [chunk({ content: 'x' }), chunk({}, 'stop', { x_groq: { id: 'req', usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } } }), DONE],
    }));
    expect((await collect(engine)).find((e) => e.type === 'usage')).toEqual({ type: 'usage', usage: { promptTokens: 3, completionTokens: 1, totalTokens: 4 } });
  });

  it('ignores choices other than the first', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        sse({
          choices: [
            { index: 1, delta: { content: 'other' } },
            { index: 0, delta: { content: 'mine' } },
          ],
        }),
        chunk({}, 'stop'),
      ],
    }));
    expect(textOf(await collect(engine))).toBe('mine');
  });

  it('attaches a metadata-only tool-call delta without index or id to the call before it (Gemini)', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ tool_calls: [{ id: 'g1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } }] }),
        chunk({ tool_calls: [{ extra_content: { google: { thought_signature: 'abc' } } }] }),
        chunk({}, 'stop'),
      ],
    }));
    expect(callsOf(await collect(engine))).toEqual([
      { id: 'g1', name: 'read', arguments: { path: 'a' }, provider: { extra_content: { google: { thought_signature: 'abc' } } } },
    ]);
  });

  it("keeps OpenRouter's reasoning_details, joined by index, for the next request", async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ reasoning: 'Let', reasoning_details: [{ type: 'reasoning.text', text: 'Let', index: 0 }] }),
        chunk({ reasoning: ' me', reasoning_details: [{ type: 'reasoning.text', text: ' me', signature: 's1', index: 0 }] }),
        chunk({ content: 'Answer' }, 'stop'),
        DONE,
      ],
    }));
    const events = await collect(engine);
    expect(textOf(events)).toBe('Answer');
    expect(events.at(-1)).toEqual({
      type: 'finish',
      reason: 'stop',
      provider: { reasoning_details: [{ type: 'reasoning.text', text: 'Let me', signature: 's1', index: 0 }] },
    });
  });

  it('decodes a whole JSON completion from a server that ignores stream: true', async () => {
    const engine = await engineFor(() => ({
      headers: { 'content-type': 'application/json' },
      pieces: [
        JSON.stringify({
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: 'Whole', tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }] },
              finish_reason: 'tool_calls',
            },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      ],
    }));
    const events = await collect(engine);
    expect(events).toEqual([
      { type: 'text', text: 'Whole' },
      { type: 'tool_call', call: { id: 'c', name: 'f', arguments: {} } },
      { type: 'usage', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it.each([
    ['{detail}', { detail: 'Model is loading' }, 'Model is loading'],
    ['{message}', { message: 'Quota exhausted' }, 'Quota exhausted'],
    ['[{error}]', [{ error: { code: 503, message: 'Backend unavailable' } }], 'Backend unavailable'],
  ])('rejects a 200 JSON body %s that is an error, not a completion, with stream_error and its message', async (_shape, body, message) => {
    const engine = await engineFor(() => ({ headers: { 'content-type': 'application/json' }, pieces: [JSON.stringify(body)] }));
    const error = await rejection(collect(engine));
    expect(error.code).toBe('stream_error');
    expect(error.message).toContain(message);
  });

  it('rejects a 200 JSON body with no choices and no message ({}) with malformed_stream', async () => {
    const engine = await engineFor(() => ({ headers: { 'content-type': 'application/json' }, pieces: ['{}'] }));
    const error = await rejection(collect(engine));
    expect(error.code).toBe('malformed_stream');
    expect(error.message).toContain('{}');
  });

  it('rejects a body of raw JSON lines (not SSE) with malformed_stream', async () => {
    const engine = await engineFor(() => ({ pieces: ['{"message":{"content":"hi"},"done":false}\n'] }));
    expect((await collect(engine).catch((e) => e)).code).toBe('malformed_stream');
  });

  it('keeps the query string of a baseURL (Azure api-version)', async () => {
    await local.start(() => ({ pieces: [chunk({ content: 'ok' }, 'stop')] }));
    const engine = createEngine(
      openAICompatible({ baseURL: `${local.server.baseURL}/deployments/gpt?api-version=2024-10-21`, model: 'gpt', headers: { 'api-key': 'k' } }),
    );
    await collect(engine);
    expect(local.server.requests[0]!.url).toBe('/v1/deployments/gpt/chat/completions?api-version=2024-10-21');
    expect(local.server.requests[0]!.headers['api-key']).toBe('k');
  });
});
