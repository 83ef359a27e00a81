// MCP: connecting is bounded. A server that takes the connection and never answers `initialize`
// holds `agent.mcp()` no longer than the config's `timeoutMs`, and the caller's signal stops it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Agent, mcpServer, scriptedEngine } from '../../src/index.js';
import { type HeldServer, startSilentServer } from '../support/held-servers.js';

/** The signal of every request sent: a request given up on has its signal aborted (Node's fetch keeps the socket itself open a while longer). */
let requestSignals: Array<AbortSignal | undefined> = [];
const realFetch = globalThis.fetch;
beforeEach(() => {
  requestSignals = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    requestSignals.push(init?.signal ?? undefined);
    return realFetch(input, init);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
});

const servers: HeldServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
});
async function silentServer(): Promise<HeldServer> {
  const server = await startSilentServer();
  servers.push(server);
  return server;
}

async function rejection(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('mcp: connecting to a server that never answers initialize', () => {
  it("fails with mcp_connect_failed once the config's timeoutMs has passed, saying so, and gives up every request it sent", async () => {
    const server = await silentServer();
    const agent = await Agent.make(scriptedEngine([]));
    const error = await rejection(agent.mcp(mcpServer({ url: `${server.url}?key=sk-never-shown`, timeoutMs: 2000 })));
    // Long enough for the connection to be taken on a loaded machine; the bound is what is checked.
    expect(error).toMatchObject({ code: 'mcp_connect_failed' });
    expect(error.message).toBe(`Could not use the MCP server at ${server.url}: it did not answer within 2000 ms`);
    expect(server.accepted).toBeGreaterThan(0);
    // Every request it sent is given up on, not left waiting.
    expect(requestSignals.length).toBeGreaterThan(0);
    expect(requestSignals.every((signal) => signal?.aborted)).toBe(true);
    expect(agent.registry.names()).toEqual([]);
  });

  it('the signal stops the wait: aborted, nothing registered, every request given up on', async () => {
    const server = await silentServer();
    const agent = await Agent.make(scriptedEngine([]));
    const controller = new AbortController();
    const connecting = agent.mcp(mcpServer({ url: server.url }), { signal: controller.signal });
    await expect.poll(() => server.accepted).toBeGreaterThan(0);
    controller.abort(new Error('the person left'));
    const error = await rejection(connecting);
    expect(error).toMatchObject({ code: 'aborted', message: `Connecting to the MCP server at ${server.url} was aborted: the person left` });
    expect(requestSignals.every((signal) => signal?.aborted)).toBe(true);
    expect(agent.registry.names()).toEqual([]);
  });

  it('a signal aborted already: aborted, and the server is never contacted', async () => {
    const server = await silentServer();
    const agent = await Agent.make(scriptedEngine([]));
    const error = await rejection(agent.mcp(mcpServer({ url: server.url }), { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ code: 'aborted' });
    expect(server.accepted).toBe(0);
    expect(requestSignals).toEqual([]);
  });
});
