// A small MCP server of our own (the v1 server SDK, Streamable HTTP) for what the reference server does not show.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** One tool of the test server: its listed definition and what a call does. */
export interface TestTool {
  definition: {
    name: string;
    description?: string;
    inputSchema: Record<string, unknown>;
    outputSchema?: Record<string, unknown>;
    annotations?: Record<string, unknown>;
  };
  call?: (
    args: Record<string, unknown>,
    extra: { signal: AbortSignal; progress: (progress: number, total?: number) => Promise<void>; meta?: Record<string, unknown> },
  ) => unknown | Promise<unknown>;
}

export interface TestServer {
  url: string;
  /** Replace the tool list; sessions are told (`notifications/tools/list_changed`) unless `silent`. */
  setTools(tools: TestTool[], options?: { silent?: boolean }): Promise<void>;
  /** Forget every session: the next request of a client gets 404, as for an expired session. */
  expireSessions(): void;
  /** Stop listening and cut every open connection, as a crashed server would. */
  die(): Promise<void>;
  /** The tools listed now. */
  readonly tools: TestTool[];
  /** How many sessions were initialised so far. */
  readonly initialized: number;
  /** Tool calls in the order they arrived (server names). */
  readonly calls: string[];
  close(): Promise<void>;
}

/** What a browser needs to reach the server from another origin (the browser tests' page). */
const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id, authorization',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-expose-headers': 'mcp-session-id',
};

/** Start a test server on 127.0.0.1 with `tools`; `cors`: a page of another origin may call it (the browser tests). */
export async function startTestServer(initial: TestTool[], options: { cors?: boolean } = {}): Promise<TestServer> {
  let tools = initial;
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
  const calls: string[] = [];
  let initialized = 0;

  const newSession = () => {
    const server = new Server({ name: 'ambi-test-server', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map((t) => t.definition) }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      calls.push(request.params.name);
      const tool = tools.find((t) => t.definition.name === request.params.name);
      if (!tool?.call) return { isError: true, content: [{ type: 'text', text: `no tool ${request.params.name}` }] };
      const token = request.params._meta?.progressToken;
      const progress = async (value: number, total?: number) => {
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: value, ...(total !== undefined ? { total } : {}) },
          });
      };
      const meta = request.params._meta as Record<string, unknown> | undefined;
      return (await tool.call(request.params.arguments ?? {}, { signal: extra.signal, progress, ...(meta ? { meta } : {}) })) as never;
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        initialized += 1;
        sessions.set(id, { transport, server });
      },
    });
    return { transport, server };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (options.cors) {
      for (const [name, value] of Object.entries(CORS)) res.setHeader(name, value);
      if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    }
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = sessions.get(id);
      if (!session) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
        return;
      }
      return session.transport.handleRequest(req, res);
    }
    const { transport, server } = newSession();
    await server.connect(transport);
    return transport.handleRequest(req, res);
  };

  const http = createServer((req, res) => void handle(req, res).catch(() => res.headersSent || res.writeHead(500).end()));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const stop = async () => {
    const closed = new Promise<void>((resolve) => http.close(() => resolve()));
    http.closeAllConnections();
    await closed;
  };

  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async setTools(next, options) {
      tools = next;
      if (!options?.silent) await Promise.all([...sessions.values()].map(({ server }) => server.sendToolListChanged().catch(() => {})));
    },
    expireSessions: () => sessions.clear(),
    die: stop,
    get tools() {
      return tools;
    },
    get initialized() {
      return initialized;
    },
    calls,
    close: () => (http.listening ? stop() : Promise.resolve()),
  };
}

/** A text result. */
export const text = (value: string) => ({ content: [{ type: 'text', text: value }] });
