// A loopback server that answers as Anthropic's, Google's and OpenAI's APIs do, replaying the
// streams their SDK's maintainers recorded (provider-fixtures.ts). A path names a session (each test
// its own), a scenario and the provider's own endpoint: `/<session>/<scenario>/anthropic/messages`.
// Scenarios: `run` (the recorded turns in order), `unauthorized` (the provider's 401), `hold` (half
// of the first turn, then the connection held open until the client leaves), `cut` (half of it,
// then the connection broken off), and single recordings
// (`args`, `cache`, `error`). Like Anthropic's API, it answers a browser (CORS) for Anthropic only
// when the request sends `anthropic-dangerous-direct-browser-access: true`.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extraFixtures, providerFixtures, providerOf, type ProviderName, sseEvent } from './provider-fixtures.js';

export interface RecordedProviderRequest {
  path: string;
  headers: IncomingHttpHeaders;
  json: any;
}

export interface ProviderServer {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** The API root a provider is given for `session` and `scenario` (append `/anthropic`, `/google`, `/openai`). */
  root(session: string, scenario: string): string;
  requests(session: string): RecordedProviderRequest[];
  /** Resolves once a held connection of `session` was closed by its client. */
  clientClosed(session: string): Promise<void>;
  /** Resolves once the `hold` scenario of `session` sent what it sends before holding. */
  sent(session: string): Promise<void>;
  close(): Promise<void>;
}

const DIRECT_BROWSER = 'anthropic-dangerous-direct-browser-access';

function turnsFor(scenario: string, provider: ProviderName): string[][] | undefined {
  if (scenario === 'run' || scenario === 'hold' || scenario === 'cut') return providerFixtures[provider].turns;
  if (scenario === 'args' && provider === 'anthropic') return [extraFixtures.anthropicToolWithArguments, providerFixtures.anthropic.turns[1]!];
  if (scenario === 'cache' && provider === 'anthropic') return [extraFixtures.anthropicProviderToolWithCache];
  if (scenario === 'error' && provider === 'openai') return [extraFixtures.openaiErrorMidStream];
  return undefined;
}

export async function startProviderServer(): Promise<ProviderServer> {
  const requests = new Map<string, RecordedProviderRequest[]>();
  const signal = () => {
    const all = new Map<string, { promise: Promise<void>; resolve: () => void }>();
    return (session: string) => {
      let entry = all.get(session);
      if (!entry) {
        let resolve!: () => void;
        const promise = new Promise<void>((r) => (resolve = r));
        entry = { promise, resolve };
        all.set(session, entry);
      }
      return entry;
    };
  };
  const closedOf = signal();
  const sentOf = signal();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const [session = '', scenario = '', ...rest] = url.pathname.split('/').filter(Boolean);
    const path = `/${rest.join('/')}`;
    const provider = providerOf(path);
    const browserAllowed = provider !== 'anthropic' || allowsDirect(req.headers);
    const cors: Record<string, string> = browserAllowed ? { 'access-control-allow-origin': '*' } : {};
    if (req.method === 'OPTIONS') {
      res.writeHead(browserAllowed ? 204 : 403, {
        ...cors,
        ...(browserAllowed
          ? { 'access-control-allow-methods': 'POST, GET', 'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*' }
          : {}),
      });
      res.end();
      return;
    }
    if (req.method === 'GET' && scenario === 'requests') return json(res, 200, requests.get(session) ?? [], cors);
    if (req.method === 'GET' && (scenario === 'closed' || scenario === 'sent')) {
      const waited = (scenario === 'closed' ? closedOf : sentOf)(session).promise.then(() => scenario);
      return json(res, 200, await Promise.race([waited, new Promise((r) => setTimeout(() => r('not yet'), 10_000))]), cors);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      body = undefined;
    }
    const list = requests.get(session) ?? [];
    requests.set(session, list);
    const n = list.length;
    list.push({ path, headers: req.headers, json: body });
    if (!provider) return json(res, 404, { error: `no provider at ${path}` }, cors);
    if (scenario === 'unauthorized') {
      const { status, body: text } = providerFixtures[provider].unauthorized;
      res.writeHead(status, { ...cors, 'content-type': 'application/json' });
      res.end(text);
      return;
    }
    const turn = turnsFor(scenario, provider)?.[n];
    if (!turn) return json(res, 500, { error: `no recorded turn ${n} for ${scenario}` }, cors);
    res.on('close', () => {
      if (!res.writableFinished) closedOf(session).resolve();
    });
    res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.flushHeaders();
    const lines = scenario === 'hold' || scenario === 'cut' ? turn.slice(0, Math.ceil(turn.length / 2)) : turn;
    for (const line of lines) {
      if (res.destroyed) return;
      await new Promise<void>((resolve) => res.write(sseEvent(provider, line), () => resolve()));
    }
    if (scenario === 'hold') return sentOf(session).resolve(); // held open: the client has to leave
    if (scenario === 'cut') return void res.socket?.destroy(); // the connection breaks off mid-reply
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    root: (session, scenario) => `${origin}/${session}/${scenario}`,
    requests: (session) => requests.get(session) ?? [],
    clientClosed: (session) => closedOf(session).promise,
    sent: (session) => sentOf(session).promise,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function allowsDirect(headers: IncomingHttpHeaders): boolean {
  const asked = String(headers['access-control-request-headers'] ?? '').toLowerCase();
  return headers[DIRECT_BROWSER] === 'true' || asked.split(',').some((name) => name.trim() === DIRECT_BROWSER);
}

function json(res: ServerResponse, status: number, value: unknown, headers: Record<string, string>): void {
  res.writeHead(status, { ...headers, 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}
