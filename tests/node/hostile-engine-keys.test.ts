// The engine's key (`apiKey`) and its `headers` values, echoed back by a hostile or careless
// server in what it says (an error body, a mid-stream error, a message long enough to be cut),
// never reach what leaves the engine: the rejection, the run's events, its cassette, its spans.
// A real loopback HTTP server echoes the request's own headers, as some proxies and gateways do.
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, openAICompatible } from '../../src/index.js';
import { createEngine, type OpenAICompatibleOptions } from '../../src/extend/index.js';
import { everyText } from '../support/error-text.js';
import { collect as runEvents } from '../support/run-events.js';
import { collect, rejection, useSseServer } from './engine-test-helpers.js';
import { chunk, type RecordedRequest, type Reply } from './sse-server.js';

const local = useSseServer();
const KEY = 'sk-proj-Kq8vT2mZ9xLw4NcR7bYd';
const HEADER_KEY = 'gw-7f3a9c1e5b2d8f4a6c0e';

/** No key, nor any piece of one 8 characters long (a key cut where a quote is shortened). */
function expectNoKey(text: string): void {
  for (const key of [KEY, HEADER_KEY]) {
    for (let at = 0; at + 8 <= key.length; at++) expect(text).not.toContain(key.slice(at, at + 8));
  }
}

/** What the server was sent, as it would echo it: the request's headers, one per line. */
const echoed = (request: RecordedRequest) =>
  Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join('\n');

const options = (baseURL: string): OpenAICompatibleOptions => ({
  baseURL,
  model: 'm',
  apiKey: KEY,
  headers: { 'x-gateway-key': `Token ${HEADER_KEY}` },
  maxRetries: 0,
});

/** A run on an engine at `reply`'s server, traced and recorded: everything that left the engine, as text. */
async function runAgainst(reply: (request: RecordedRequest) => Reply) {
  const server = await local.start(reply);
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer('keys');
  const agent = await Agent.make(openAICompatible(options(server.baseURL)), { record: true });
  const run = new ChatRunner().run(agent, 'hi', { tracer });
  const events = await runEvents(run);
  const error = await rejection(run.result);
  const spans = exporter.getFinishedSpans().map((span) => ({ name: span.name, status: span.status, attributes: span.attributes, events: span.events }));
  return { server, error, events: JSON.stringify(events), cassette: JSON.stringify(agent.cassette()), spans: JSON.stringify(spans) };
}

describe('a server that echoes the engine key in its error', () => {
  it('an HTTP error whose JSON body quotes the Authorization and gateway headers: no key in the rejection, events, cassette or spans', async () => {
    const seen = await runAgainst((request) => ({
      status: 401,
      headers: { 'content-type': 'application/json' },
      pieces: [JSON.stringify({ error: { message: `Unauthorized. Request headers were:\n${echoed(request)}`, type: 'auth' } })],
    }));
    // The server did receive both keys, and echoed them.
    expect(seen.server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(seen.server.requests[0]!.headers['x-gateway-key']).toBe(`Token ${HEADER_KEY}`);
    expect(seen.error).toMatchObject({ code: 'http_error', status: 401 });
    expect(seen.error.message).toContain('authorization: Bearer ***');
    expectNoKey(everyText(seen.error));
    expect(seen.events).toContain('run_failed');
    expectNoKey(seen.events);
    expect(seen.cassette).toContain('http_error');
    expectNoKey(seen.cassette);
    expect(seen.spans).toContain('http_error');
    expectNoKey(seen.spans);
  });

  it('a plain-text 500 that quotes the headers, whose key falls where the quote is cut: no piece of it left', async () => {
    const seen = await runAgainst((request) => {
      const auth = String(request.headers.authorization);
      // The server's message is cut to 300 characters: place the key across that cut.
      return { status: 500, headers: { 'content-type': 'text/plain' }, pieces: [`${'e'.repeat(280)} ${auth} ${request.headers['x-gateway-key']}`] };
    });
    expect(seen.error).toMatchObject({ code: 'http_error', status: 500 });
    expectNoKey(everyText(seen.error));
    expectNoKey(seen.events);
    expectNoKey(seen.cassette);
    expectNoKey(seen.spans);
  });

  it('a mid-stream error event that quotes the gateway header', async () => {
    const seen = await runAgainst((request) => ({
      pieces: [
        chunk({ role: 'assistant', content: 'Hel' }),
        `event: error\ndata: ${JSON.stringify({ error: { message: `gateway rejected ${request.headers['x-gateway-key']}` } })}\n\n`,
      ],
    }));
    expect(seen.error.code).toBe('stream_error');
    expect(seen.error.message).toContain('gateway rejected ***');
    expectNoKey(everyText(seen.error));
    expectNoKey(seen.events);
    expectNoKey(seen.cassette);
    expectNoKey(seen.spans);
  });

  it('a JSON answer that is an error instead of a completion, quoting the key in a nested field', async () => {
    const seen = await runAgainst((request) => ({
      headers: { 'content-type': 'application/json' },
      pieces: [JSON.stringify({ error: { message: 'invalid key', details: { received: request.headers.authorization } } })],
    }));
    expect(seen.error.code).toBe('stream_error');
    expectNoKey(everyText(seen.error));
    expectNoKey(seen.events);
    expectNoKey(seen.cassette);
  });
});

describe('a header value the HTTP client refuses', () => {
  it('is not quoted back: fetch names the value it refuses, the engine takes the key out', async () => {
    const server = await local.start(() => ({ pieces: [] }));
    const engine = createEngine(openAICompatible({ ...options(server.baseURL), headers: { 'x-gateway-key': `${HEADER_KEY}\u0000` } }));
    const error = await rejection(collect(engine));
    expect(server.requests).toHaveLength(0);
    expectNoKey(everyText(error));
  });
});
