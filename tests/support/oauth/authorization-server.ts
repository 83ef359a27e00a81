// A real OAuth 2.1 authorization server on 127.0.0.1 for the MCP login tests: oidc-provider (panva),
// configured as an MCP server's authorization server is (PKCE, RFC 8707 resource indicators with JWT
// access tokens for the MCP server, refresh tokens, revocation, RFC 9207 `iss`), with dynamic client
// registration and client ID metadata documents each switched on or off. Its own login and consent
// pages (devInteractions) are what the tests click.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error oidc-provider ships no type declarations
import Provider from 'oidc-provider';

export interface AuthorizationServerOptions {
  /** The MCP servers (resources) tokens may be issued for. */
  resources: () => string[];
  /** Dynamic client registration (RFC 7591), default on. */
  registration?: boolean;
  /** Client ID metadata documents, default off. */
  metadataDocuments?: boolean;
  /** How the server fetches a client ID metadata document (default: fetch). */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

export interface AuthorizationServer {
  issuer: string;
  /** Every request's method and path, in order (what a test asserts was, or was not, asked). */
  readonly requests: string[];
  /** Lifetimes in seconds of the tokens issued from now on. */
  setTtl(ttl: { accessToken?: number; refreshToken?: number }): void;
  close(): Promise<void>;
}

/** Start one; `requests` starts empty. */
export async function startAuthorizationServer(options: AuthorizationServerOptions): Promise<AuthorizationServer> {
  const ttl = { accessToken: 600, refreshToken: 3600 };
  const requests: string[] = [];
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.writeHead(503).end();
  const http = createServer((req, res) => {
    requests.push(`${req.method} ${req.url?.split('?')[0]}`);
    handle(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [],
    scopes: ['openid', 'offline_access', 'mcp:tools'],
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: options.registration !== false },
      revocation: { enabled: true },
      clientIdMetadataDocument: {
        enabled: options.metadataDocuments === true,
        ack: 'draft-02',
        // The document is served on loopback in the tests: the server's own SSRF guard would refuse it.
        allowFetch: async () => true,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx: unknown, resource: string) => {
          if (!options.resources().includes(resource)) throw new Error(`unknown resource ${resource}`);
          return { scope: 'mcp:tools', audience: resource, accessTokenFormat: 'jwt', accessTokenTTL: ttl.accessToken };
        },
      },
    },
    pkce: { required: () => true },
    // Pages of another origin (the test page, the runner worker) call the token and registration endpoints.
    clientBasedCORS: () => true,
    // A refresh token for every code grant of a client allowed to refresh (not only with offline_access and prompt=consent).
    issueRefreshToken: async (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: () => ttl.accessToken,
      RefreshToken: () => ttl.refreshToken,
      AuthorizationCode: 60,
      Grant: 3600,
      Interaction: 600,
      Session: 3600,
    },
    findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub }) }),
    ...(options.fetch ? { fetch: (url: string, init: RequestInit) => options.fetch?.(url, init) } : {}),
  });
  // Quiet: the tests read outcomes, not the server's warnings about its defaults.
  provider.on('server_error', () => {});
  const callback = provider.callback();
  handle = (req, res) => {
    // oidc-provider answers no CORS on its registration endpoint: a deployment that lets pages
    // register (as MCP's dynamic registration from a browser needs) adds it in front, as here.
    if (req.url?.startsWith('/reg')) {
      res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
      res.setHeader('access-control-allow-headers', 'content-type, authorization');
      res.setHeader('access-control-allow-methods', 'POST');
      if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    }
    callback(req, res);
  };
  return {
    issuer,
    requests,
    setTtl(next) {
      Object.assign(ttl, Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined)));
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
    },
  };
}
