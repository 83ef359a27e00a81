// MCP: what a connection's URL and headers carry (tokens) never shows in an error, an event or
// what the model reads, whoever quotes it: Node's own Headers check, or a server that echoes them.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, ChatRunner, mcpServer, scriptedEngine, type RunEvent } from '../../src/index.js';
import { everyText } from '../support/error-text.js';
import { startTestServer, type TestServer } from '../support/mcp-test-server.js';

const TOKEN = 'tok-live-0123456789abcdef';
const QUERY_KEY = 'qk live/0123456789'; // written percent-encoded in the URL: both spellings are secret
const encodedKey = encodeURIComponent(QUERY_KEY);

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function expectNoSecret(text: string): void {
  for (const secret of [TOKEN, QUERY_KEY, encodedKey]) expect(text).not.toContain(secret);
}

/** A plain HTTP server that refuses every request, quoting back its URL (query included) and its Authorization header. */
async function echoingRefuser(): Promise<string> {
  const http: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(400, { 'content-type': 'text/plain' }).end(`bad request to ${req.url} with authorization "${req.headers.authorization}"`);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

async function rejection(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

describe('mcp: secrets in connect errors', () => {
  it("a header value Node's Headers refuses (and quotes) is not in the mcp_connect_failed error", async () => {
    const url = await echoingRefuser();
    const agent = await Agent.make(scriptedEngine([]));
    // A control character in the value: Headers refuses it with a message that quotes the whole value.
    const error = await rejection(agent.mcp(mcpServer({ url, headers: { Authorization: `Bearer ${TOKEN}\u0000` } })));
    expect(error.code).toBe('mcp_connect_failed');
    expect(error.message).toContain('invalid header value');
    expectNoSecret(everyText(error));
  });

  it('a server that echoes the URL query and the Authorization header in its error body: the error names the status, not the secrets', async () => {
    const url = await echoingRefuser();
    const agent = await Agent.make(scriptedEngine([]));
    const error = await rejection(agent.mcp(mcpServer({ url: `${url}?key=${encodedKey}&region=eu-west-1`, headers: { Authorization: `Bearer ${TOKEN}` } })));
    expect(error.code).toBe('mcp_connect_failed');
    expect(error.message).toContain('HTTP 400');
    expect(error.message).toContain('bad request to /mcp?key=***');
    expectNoSecret(everyText(error));
  });

  it('a header value without a scheme is hidden whole, wherever the server echoes it', async () => {
    const url = await echoingRefuser();
    const agent = await Agent.make(scriptedEngine([]));
    const error = await rejection(agent.mcp(mcpServer({ url, headers: { Authorization: TOKEN } })));
    expect(error.code).toBe('mcp_connect_failed');
    expectNoSecret(everyText(error));
  });
});

describe('mcp: secrets in call failures', () => {
  it('a tool error that quotes the token and the query value reaches the model and the events without them', async () => {
    const server: TestServer = await startTestServer([
      {
        definition: { name: 'leaky', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        call: () => {
          throw new Error(`denied for token ${TOKEN} and key ${QUERY_KEY}`);
        },
      },
    ]);
    closers.push(() => server.close());
    const agent = await Agent.make(scriptedEngine([{ toolCalls: [{ name: 'leaky', arguments: {} }] }, 'done']));
    const connection = await agent.mcp(mcpServer({ url: `${server.url}?key=${encodedKey}`, headers: { Authorization: `Bearer ${TOKEN}` } }));
    const run = new ChatRunner().run(agent, 'go');
    const events: RunEvent[] = [];
    for await (const event of run.events) events.push(event);
    const result = await run.result;
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'tool_error', message: expect.stringContaining('denied for token ***') } });
    expectNoSecret(JSON.stringify(events));
    expectNoSecret(JSON.stringify(result.messages));
    await connection.close();
  });
});
