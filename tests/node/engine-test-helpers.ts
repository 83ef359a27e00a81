import { createServer } from 'node:net';
import { afterEach } from 'vitest';
import { createEngine } from '../../src/engines/create-engine.js';
import { openAICompatible, type OpenAICompatibleOptions } from '../../src/engines/openai/openai-compatible.js';
import type { Engine, EngineEvent, EngineRequest } from '../../src/engines/types.js';
import type { Message } from '../../src/core/types.js';
import { startSseServer, type Handler, type SseServer } from './sse-server.js';

/** A request with one user message and no tools, overridable. */
export function request(overrides: Partial<EngineRequest> = {}): EngineRequest {
  const messages: Message[] = [{ role: 'user', content: 'hi' }];
  return { messages, tools: [], ...overrides };
}

/** Every event of one stream, in order. */
export async function collect(engine: Engine, req: EngineRequest = request()): Promise<EngineEvent[]> {
  const events: EngineEvent[] = [];
  for await (const event of engine.stream(req)) events.push(event);
  return events;
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** The concatenated text of a stream's events. */
export function textOf(events: EngineEvent[]): string {
  return events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
}

/** The tool calls of a stream's events. */
export function callsOf(events: EngineEvent[]) {
  return events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
}

/** One SSE test server per test, closed after it: `start` it, or get an engine pointed at it with `engineFor`. */
export function useSseServer() {
  let current: SseServer | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  const start = async (handler: Handler): Promise<SseServer> => (current = await startSseServer(handler));
  return {
    /** The running server (after `start` or `engineFor`). */
    get server(): SseServer {
      if (!current) throw new Error('no SSE server started in this test');
      return current;
    },
    start,
    async engineFor(handler: Handler, options: Partial<OpenAICompatibleOptions> = {}) {
      const server = await start(handler);
      return createEngine(openAICompatible({ baseURL: server.baseURL, model: 'test-model', ...options }));
    },
  };
}

/** A port nobody listens on: bind one, note it, close it. */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
