// Issue 15: a server that never answered is not retried, its error says what to check, and the idle timeout has a default.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engines/create-engine.js';
import { openAICompatible } from '../../src/engines/openai/openai-compatible.js';
import { closedPort, collect, rejection, textOf, useSseServer } from './engine-test-helpers.js';
import { textStream } from './sse-server.js';

const local = useSseServer();

/** fetch, counting the requests it was asked to make. */
function countingFetch(): { calls: number; fetch: typeof fetch } {
  const counted = { calls: 0, fetch };
  counted.fetch = (input, init) => {
    counted.calls++;
    return fetch(input, init);
  };
  return counted;
}

describe('OpenAI-compatible engine: a server that never answered', () => {
  it('network_error after one attempt, whatever maxRetries: a refused connection fails the same way again', async () => {
    const port = await closedPort();
    const counted = countingFetch();
    const engine = createEngine(openAICompatible({ baseURL: `http://127.0.0.1:${port}/v1`, model: 'm', maxRetries: 3 }), { fetch: counted.fetch });
    const error = await rejection(collect(engine));
    expect(error.code).toBe('network_error');
    expect(counted.calls).toBe(1);
  });

  it('network_error names what to check: the server running, the URL', async () => {
    const port = await closedPort();
    const engine = createEngine(openAICompatible({ baseURL: `http://127.0.0.1:${port}/v1`, model: 'm' }));
    const error = await rejection(collect(engine));
    expect(error.message).toContain(`http://127.0.0.1:${port}/v1/chat/completions`);
    expect(error.message).toMatch(/server is running/);
    expect(error.message).toMatch(/URL is right/);
  });

  it('a server that resets each connection before answering: network_error after one attempt', async () => {
    let requests = 0;
    const server = createServer((req) => {
      requests++;
      req.socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const engine = createEngine(openAICompatible({ baseURL: `http://127.0.0.1:${port}/v1`, model: 'm', maxRetries: 3 }));
      expect((await rejection(collect(engine))).code).toBe('network_error');
      expect(requests).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('a server silent past timeoutMs before any response: timeout after one attempt', async () => {
    const engine = await local.engineFor(() => new Promise(() => {}), { timeoutMs: 400, maxRetries: 2 });
    expect((await rejection(collect(engine))).code).toBe('timeout');
    expect(local.server.requests).toHaveLength(1);
  });

  it('still retries a 503 (a response arrived), then streams the answer', async () => {
    const engine = await local.engineFor((_r, n) =>
      n === 0 ? { status: 503, headers: { 'retry-after-ms': '1' }, pieces: ['busy'] } : { pieces: textStream('ok') },
    );
    expect(textOf(await collect(engine))).toBe('ok');
    expect(local.server.requests).toHaveLength(2);
  });
});

describe('OpenAI-compatible engine: the default idle timeout', () => {
  it('is 60 000 ms, filled in the config', () => {
    expect(openAICompatible({ baseURL: 'http://x/v1', model: 'm' }).timeoutMs).toBe(60_000);
    expect(openAICompatible({ baseURL: 'http://x/v1', model: 'm', timeoutMs: 5000 }).timeoutMs).toBe(5000);
  });

  it.each([0, -1, Number.NaN, '1000'])('refuses timeoutMs %s with invalid_engine_config', (timeoutMs) => {
    expect(() => openAICompatible({ baseURL: 'http://x/v1', model: 'm', timeoutMs: timeoutMs as number })).toThrow(
      expect.objectContaining({ code: 'invalid_engine_config' }),
    );
  });

  it('Infinity means no limit: a slow first byte still gets its answer', async () => {
    const engine = await local.engineFor(() => new Promise((resolve) => setTimeout(() => resolve({ pieces: textStream('late') }), 300)), {
      timeoutMs: Infinity,
    });
    expect(textOf(await collect(engine))).toBe('late');
  });
});

describe('OpenAI-compatible engine: the end of a whole answer', () => {
  it('lets the server end the response after [DONE] rather than cancelling it (no net::ERR_ABORTED in a browser)', async () => {
    const engine = await local.engineFor(() => ({ pieces: [...textStream('hi'), { text: ': closing\n\n', delayMs: 200 }] }));
    expect(textOf(await collect(engine))).toBe('hi');
    const first = await Promise.race([local.server.ended(0).then(() => 'server ended'), local.server.clientClosed(0).then(() => 'client cancelled')]);
    expect(first).toBe('server ended');
  });

  it('leaves a server that keeps streaming after [DONE]: the background read stops at the grace and cancels', async () => {
    const junk = Array.from({ length: 100 }, () => ({ text: `: ${'x'.repeat(10_000)}\n\n`, delayMs: 100 }));
    const engine = await local.engineFor(() => ({ pieces: [...textStream('flood'), ...junk] }));
    expect(textOf(await collect(engine))).toBe('flood');
    await local.server.clientClosed(0);
    expect(await Promise.race([local.server.ended(0).then(() => 'ended'), Promise.resolve('cut short')])).toBe('cut short');
  });

  it('still leaves a server that holds the connection open after [DONE], within the grace', async () => {
    const engine = await local.engineFor(() => ({ pieces: textStream('held'), then: 'hold' }));
    expect(textOf(await collect(engine))).toBe('held');
    await local.server.clientClosed(0);
  });
});
