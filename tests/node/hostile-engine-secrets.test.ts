// Secrets in an engine's baseURL (user-info, query values such as `api-key`) never reach what a person
// or a log sees: config errors, network errors, what a server echoes back, a run's events.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, openAICompatible, type OpenAICompatibleConfig } from '../../src/index.js';
import { createEngine } from '../../src/extend/index.js';
import { everyText } from '../support/error-text.js';
import { collect as runEvents } from '../support/run-events.js';
import { closedPort, collect, rejection, useSseServer } from './engine-test-helpers.js';
import { chunk } from './sse-server.js';

const local = useSseServer();
const SECRET = 'sk-live-0123456789abcdef';
const USER = 'alice-the-admin';

function expectNoSecret(error: unknown): void {
  const text = everyText(error);
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain(encodeURIComponent(SECRET));
  expect(text).not.toContain(USER);
}

describe('secrets in a baseURL: config errors', () => {
  it('refuses a baseURL with user-info (fetch never sends it), naming the URL without it', () => {
    const error = catchOf(() => openAICompatible({ baseURL: `https://${USER}:${SECRET}@api.example.com/v1`, model: 'm' }));
    expect(error).toMatchObject({ code: 'invalid_engine_config' });
    expect(error.message).toContain('https://api.example.com/v1');
    expectNoSecret(error);
  });

  it('refuses a user name alone too', () => {
    const error = catchOf(() => openAICompatible({ baseURL: `https://${USER}@api.example.com/v1`, model: 'm' }));
    expect(error).toMatchObject({ code: 'invalid_engine_config' });
    expectNoSecret(error);
  });

  it.each([
    ['a relative baseURL (no location in Node)', `/v1?api-key=${SECRET}`],
    ['a baseURL that is not a URL', `https://api.example.com:notaport/v1?key=${SECRET}&x=1`],
    ['a baseURL that is not a URL, with user-info', `https//${USER}:${SECRET}@api.example.com/v1`],
  ])('quotes %s with its query values and user-info redacted', (_, baseURL) => {
    const error = catchOf(() => openAICompatible({ baseURL, model: 'm' }));
    expect(error).toMatchObject({ code: 'invalid_engine_config' });
    expectNoSecret(error);
  });

  it('refuses user-info in a config written by hand, when the engine first runs', async () => {
    const config: OpenAICompatibleConfig = {
      kind: 'openai-compatible',
      baseURL: `http://${USER}:${SECRET}@127.0.0.1:9/v1`,
      model: 'm',
      nativeTools: true,
      maxRetries: 0,
    };
    const error = await rejection(collect(createEngine(config)));
    expect(error).toMatchObject({ code: 'invalid_engine_config' });
    expectNoSecret(error);
  });

  it('keeps the query values in the request it sends', async () => {
    const server = await local.start(() => ({ pieces: [chunk({ content: 'ok' }, 'stop')] }));
    await collect(createEngine(openAICompatible({ baseURL: `${server.baseURL}?api-key=${SECRET}`, model: 'm' })));
    expect(server.requests[0]!.url).toBe(`/v1/chat/completions?api-key=${SECRET}`);
  });
});

describe('secrets in a baseURL: request errors', () => {
  it('names the server of a network error without its query values, in the message and the causes', async () => {
    const port = await closedPort();
    const engine = createEngine(
      openAICompatible({ baseURL: `http://127.0.0.1:${port}/v1?api-key=${SECRET}&api-version=2024-10-21`, model: 'm', maxRetries: 0 }),
    );
    const error = await rejection(collect(engine));
    expect(error.code).toBe('network_error');
    expect(error.message).toContain(`127.0.0.1:${port}/v1/chat/completions?api-key=***&api-version=***: `);
    expectNoSecret(error);
  });

  it('redacts the URL when the server echoes it in an HTTP error', async () => {
    const server = await local.start(() => ({
      status: 404,
      headers: { 'content-type': 'application/json' },
      pieces: [JSON.stringify({ error: { message: `Invalid URL (POST /v1/chat/completions?api-key=${SECRET})` } })],
    }));
    const error = await rejection(collect(createEngine(openAICompatible({ baseURL: `${server.baseURL}?api-key=${SECRET}`, model: 'm' }))));
    expect(error).toMatchObject({ code: 'http_error', status: 404 });
    expect(error.message).toContain('Invalid URL (POST /v1/chat/completions?api-key=');
    expectNoSecret(error);
  });

  it('redacts a query value the server echoes mid-stream, in the message and the cause', async () => {
    const server = await local.start(() => ({
      pieces: [chunk({ content: 'a' }), `event: error\ndata: ${JSON.stringify({ error: { message: `key ${SECRET} was revoked` } })}\n\n`],
    }));
    const error = await rejection(collect(createEngine(openAICompatible({ baseURL: `${server.baseURL}?key=${SECRET}`, model: 'm' }))));
    expect(error.code).toBe('stream_error');
    expect(error.message).toContain('was revoked');
    expectNoSecret(error);
  });

  it('puts no secret in run_failed nor in the rejection of a run', async () => {
    const port = await closedPort();
    const agent = await Agent.make(openAICompatible({ baseURL: `http://127.0.0.1:${port}/v1?api-key=${SECRET}`, model: 'm', maxRetries: 0 }));
    const run = new ChatRunner().run(agent, 'hi');
    const events = await runEvents(run);
    const error = await rejection(run.result);
    expectNoSecret(error);
    const failed = events.find((e) => e.type === 'run_failed');
    expect(failed).toMatchObject({ error: { code: 'network_error' } });
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });
});

function catchOf(fn: () => unknown): any {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
