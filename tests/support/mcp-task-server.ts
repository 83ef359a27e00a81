// An MCP server of the 2026-07-28 era (the v2 server SDK, `createMcpHandler`, on node:http) whose
// tools answer with tasks (the Tasks extension, SEP-2663): `tasks/get` and `tasks/cancel` served as
// the SDK serves extension methods (explicit schemas). The SDK 2.4.0 has no Tasks support and
// refuses a handler's `resultType: "task"`, so a tool's handler returns the task under
// `_meta["test/task"]` and this server's HTTP layer writes it as the CreateTaskResult on the wire.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';
import { z } from 'zod';

/** One task's life on the server: its status over time. */
export interface TaskScript {
  /** Status messages, one per step. */
  steps: string[];
  stepMs: number;
  /** The result once the steps are done (a CallToolResult), or a JSON-RPC error for a failed task. */
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  /** The server's advice on polling. */
  pollIntervalMs?: number;
  /** Stays `input_required` after the steps (the client cannot answer yet). */
  inputRequired?: boolean;
  /** Answered at once with this result instead of a task (what a forged task marker looks like). */
  plain?: Record<string, unknown>;
}

export interface TaskServer {
  url: string;
  /** Requests as they arrived: method, task id where there is one, and whether the client declared the Tasks extension. */
  readonly requests: Array<{ method: string; taskId?: string; declaredTasks: boolean; mcpName?: string }>;
  /** Tasks by id: whether each was cancelled. */
  readonly cancelled: string[];
  close(): Promise<void>;
}

const EXTENSION = 'io.modelcontextprotocol/tasks';

export async function startTaskServer(tools: Record<string, TaskScript>): Promise<TaskServer> {
  const requests: TaskServer['requests'] = [];
  const cancelled: string[] = [];
  const tasks = new Map<string, { script: TaskScript; started: number; cancelled: boolean }>();
  let declaredAtInitialize = false;

  const taskState = (taskId: string) => {
    const entry = tasks.get(taskId);
    if (!entry) throw new Error(`unknown task ${taskId}`);
    const { script, started } = entry;
    const step = Math.floor((Date.now() - started) / script.stepMs);
    const base = {
      taskId,
      createdAt: new Date(started).toISOString(),
      lastUpdatedAt: new Date().toISOString(),
      ttlMs: 60_000,
      ...(script.pollIntervalMs !== undefined ? { pollIntervalMs: script.pollIntervalMs } : {}),
    };
    if (entry.cancelled) return { ...base, status: 'cancelled', statusMessage: 'cancelled by the client' };
    if (step < script.steps.length) return { ...base, status: 'working', statusMessage: script.steps[step] };
    if (script.inputRequired)
      return {
        ...base,
        status: 'input_required',
        inputRequests: {
          name: { method: 'elicitation/create', params: { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: {} } } },
        },
      };
    if (script.error) return { ...base, status: 'failed', error: script.error };
    return { ...base, status: 'completed', result: script.result ?? { content: [{ type: 'text', text: 'done' }] } };
  };

  const handler = createMcpHandler(() => {
    const server = new Server({ name: 'ambi-task-server', version: '1.0.0' }, { capabilities: { tools: {}, extensions: { [EXTENSION]: {} } } });
    server.setRequestHandler('tools/list', async () => ({
      tools: Object.keys(tools).map((name) => ({ name, inputSchema: { type: 'object' as const }, annotations: { readOnlyHint: true } })),
    }));
    server.setRequestHandler('tools/call', async (request) => {
      const script = tools[request.params.name];
      if (!script) return { isError: true, content: [{ type: 'text' as const, text: 'no such tool' }] };
      if (script.plain) return script.plain as never;
      const taskId = crypto.randomUUID();
      tasks.set(taskId, { script, started: Date.now(), cancelled: false });
      return { content: [], _meta: { 'test/task': taskState(taskId) } };
    });
    server.setRequestHandler('tasks/get', { params: z.object({ taskId: z.string() }).passthrough() }, async ({ taskId }) => taskState(taskId) as never);
    server.setRequestHandler('tasks/cancel', { params: z.object({ taskId: z.string() }).passthrough() }, async ({ taskId }) => {
      const entry = tasks.get(taskId);
      if (entry) entry.cancelled = true;
      cancelled.push(taskId);
      return {};
    });
    return server;
  });

  const http = createServer((req, res) => void serve(req, res).catch(() => res.headersSent || res.writeHead(500).end()));
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    if (body) {
      const message = JSON.parse(body) as { method?: string; params?: Record<string, unknown> & { _meta?: Record<string, unknown> } };
      // Declared per request (2026-07-28), or once in `initialize` (the 2025 handshake).
      const perRequest = message.params?._meta?.['io.modelcontextprotocol/clientCapabilities'] as { extensions?: Record<string, unknown> } | undefined;
      if (message.method === 'initialize')
        declaredAtInitialize = (message.params?.capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[EXTENSION] !== undefined;
      const capabilities = perRequest ?? (declaredAtInitialize ? { extensions: { [EXTENSION]: {} } } : undefined);
      requests.push({
        method: String(message.method),
        ...(typeof message.params?.taskId === 'string' ? { taskId: message.params.taskId } : {}),
        declaredTasks: capabilities?.extensions?.[EXTENSION] !== undefined,
        ...(typeof req.headers['mcp-name'] === 'string' ? { mcpName: req.headers['mcp-name'] } : {}),
      });
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const response = await handler.fetch(new Request(`http://${req.headers.host}${req.url}`, { method: req.method, headers, ...(body ? { body } : {}) }));
    const raw = await response.text();
    // A JSON answer, or an SSE stream of them: each message whose result carries a task is written as the CreateTaskResult.
    const text = response.headers.get('content-type')?.includes('text/event-stream')
      ? raw.replace(/^data: (.*)$/gm, (_line, json: string) => `data: ${asCreateTaskResult(json)}`)
      : raw && asCreateTaskResult(raw);
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(text);
  };
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    requests,
    cancelled,
    close: async () => {
      await handler.close();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
    },
  };
}

/** A JSON-RPC message (as JSON text): one whose result carries `_meta["test/task"]` becomes the CreateTaskResult it stands for. */
function asCreateTaskResult(json: string): string {
  const message = JSON.parse(json) as { id?: unknown; result?: { _meta?: Record<string, unknown> } };
  const task = message.result?._meta?.['test/task'];
  return task === undefined ? json : JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { resultType: 'task', ...(task as object) } });
}
