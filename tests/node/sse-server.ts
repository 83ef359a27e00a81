import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the test server saw it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON. */
  json: any;
}

/** One piece of a streamed response: raw text, or raw text after a pause. */
export type Piece = string | { text: string; delayMs?: number };

/** How the server answers one request. */
export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Written in order, each flushed on its own (so the client sees separate reads). */
  pieces?: Piece[];
  /** After the pieces: `end` (default) finishes the response, `cut` destroys the socket, `hold` keeps it open until the client leaves. */
  then?: 'end' | 'cut' | 'hold';
}

/** Answers request number `n` (0-based). */
export type Handler = (request: RecordedRequest, n: number) => Reply | Promise<Reply>;

export interface SseServer {
  /** `http://127.0.0.1:PORT/v1`: an API root as users configure it. */
  baseURL: string;
  requests: RecordedRequest[];
  /** Resolves when the client has closed the connection of request `n` before the server ended it. */
  clientClosed(n: number): Promise<void>;
  /** Resolves when the server has ended response `n` itself (`then: 'end'`), every piece written. */
  ended(n: number): Promise<void>;
  close(): Promise<void>;
}

/** Start a real HTTP server on 127.0.0.1, port 0, answering each request with `handler`. */
export async function startSseServer(handler: Handler): Promise<SseServer> {
  const requests: RecordedRequest[] = [];
  const closed: Array<{ promise: Promise<void>; resolve: () => void }> = [];
  const slot = (list: Array<{ promise: Promise<void>; resolve: () => void }>, n: number) => {
    while (list.length <= n) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      list.push({ promise, resolve });
    }
    return list[n]!;
  };
  const closedSlot = (n: number) => slot(closed, n);
  const ends: Array<{ promise: Promise<void>; resolve: () => void }> = [];

  const server: Server = createServer(async (req, res) => {
    const n = requests.length;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      json = undefined;
    }
    const recorded: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, json };
    requests.push(recorded);
    let finished = false;
    res.on('close', () => {
      if (!finished) closedSlot(n).resolve();
    });

    const reply = await handler(recorded, n);
    res.writeHead(reply.status ?? 200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
    res.flushHeaders();
    for (const piece of reply.pieces ?? []) {
      const { text, delayMs } = typeof piece === 'string' ? { text: piece, delayMs: 0 } : piece;
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      if (res.destroyed) return;
      // Wait for each write to flush so pieces reach the client as separate reads.
      await new Promise<void>((resolve) => res.write(text, () => resolve()));
    }
    if (reply.then === 'cut') {
      finished = true;
      res.socket?.destroy();
    } else if (reply.then === 'hold') {
      // Stay open: the client has to be the one to leave.
    } else {
      finished = true;
      res.end(() => slot(ends, n).resolve());
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    clientClosed: (n) => closedSlot(n).promise,
    ended: (n) => slot(ends, n).promise,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One SSE `data:` event holding `value` as JSON. */
export function sse(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

/** A `chat.completion.chunk` with one choice built from `delta` and `finish_reason`. */
export function chunk(delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}): string {
  return sse({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'test-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  });
}

/** The `[DONE]` sentinel. */
export const DONE = 'data: [DONE]\n\n';

/** A whole streamed text answer: one chunk per piece, a stop chunk, `[DONE]`. */
export function textStream(...pieces: string[]): string[] {
  return [chunk({ role: 'assistant', content: '' }), ...pieces.map((content) => chunk({ content })), chunk({}, 'stop'), DONE];
}

/** A JSON error body, as OpenAI-style servers send it. */
export function errorReply(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { 'content-type': 'application/json', ...headers },
    pieces: [JSON.stringify({ error: { message, type: 'test_error' } })],
  };
}
