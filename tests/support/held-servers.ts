// Servers that hold a client waiting: one that takes connections and never answers, and a proxy
// that answers late (for a connection that completes after its caller gave up).
import { createServer as createHttpServer, request } from 'node:http';
import { createServer, type Socket } from 'node:net';

/** A running server: its endpoint, how many connections it took, and how to stop it. */
export interface HeldServer {
  url: string;
  readonly accepted: number;
  stop(): Promise<void>;
}

/** A server that accepts every connection and never writes a byte. */
export async function startSilentServer(): Promise<HeldServer> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get accepted() {
      return accepted;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A proxy to `target` (an http URL ending in `/mcp`) that passes each request on after `delayMs`. */
export async function startDelayedProxy(target: string, delayMs: number): Promise<HeldServer> {
  const upstream = new URL(target);
  let accepted = 0;
  const server = createHttpServer((req, res) => {
    accepted += 1;
    setTimeout(() => {
      const forward = request(
        { host: upstream.hostname, port: upstream.port, path: upstream.pathname, method: req.method, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    get accepted() {
      return accepted;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
