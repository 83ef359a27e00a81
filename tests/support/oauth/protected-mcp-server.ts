// An MCP server that takes only tokens of its authorization server: the v1 server SDK's Streamable
// HTTP transport (stateless) behind its own bearer-auth middleware and protected-resource metadata
// router (RFC 9728), verifying JWT access tokens (issuer, audience = this server: RFC 8707) with jose.
import type { AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthMetadataRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createRemoteJWKSet, jwtVerify } from 'jose';
// @ts-expect-error express ships no type declarations here (it comes with the server SDK)
import express from 'express';

/** The CORS a browser needs of an MCP server with OAuth (docs/mcp.md lists them); a test drops one to see the failure. */
export const MCP_CORS = {
  allowHeaders: ['content-type', 'accept', 'authorization', 'mcp-protocol-version', 'mcp-session-id', 'mcp-method', 'mcp-name', 'last-event-id'],
  exposeHeaders: ['mcp-session-id', 'www-authenticate'],
};

export interface ProtectedMcpServer {
  url: string;
  /** How many MCP requests came with a token that was accepted, and how many were refused (401). */
  readonly accepted: number;
  readonly refused: number;
  close(): Promise<void>;
}

export interface ProtectedMcpServerOptions {
  /** The authorization server's issuer (its metadata is read from `/.well-known/openid-configuration`). */
  issuer: string;
  /** The CORS headers allowed and exposed (default MCP_CORS). */
  cors?: { allowHeaders: string[]; exposeHeaders: string[] };
  /** Listen on this port (default: a free one). */
  port?: number;
}

/** Start one on 127.0.0.1: its one tool, `whoami`, answers with the token's subject, audience and scopes. */
export async function startProtectedMcpServer(options: ProtectedMcpServerOptions): Promise<ProtectedMcpServer> {
  const metadata = (await (await fetch(`${options.issuer}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string };
  const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri));
  const cors = options.cors ?? MCP_CORS;
  const app = express();
  let url = '';
  let accepted = 0;
  let refused = 0;
  app.use((req: { method: string }, res: { setHeader(n: string, v: string): void; status(n: number): { end(): void } }, next: () => void) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
    res.setHeader('access-control-allow-headers', cors.allowHeaders.join(', '));
    res.setHeader('access-control-expose-headers', cors.exposeHeaders.join(', '));
    if (req.method === 'OPTIONS') return res.status(204).end();
    next();
  });
  const verifier = {
    async verifyAccessToken(token: string) {
      try {
        const { payload } = await jwtVerify(token, jwks, { issuer: metadata.issuer, audience: url });
        return {
          token,
          clientId: String(payload.client_id),
          scopes: String(payload.scope ?? '').split(' '),
          expiresAt: payload.exp,
          resource: new URL(url),
          extra: { sub: payload.sub, aud: payload.aud },
        };
      } catch (error) {
        throw new InvalidTokenError(`Token refused: ${(error as Error).message}`);
      }
    },
  };
  const http: HttpServer = await new Promise((resolve) => {
    const server = app.listen(options.port ?? 0, '127.0.0.1', () => resolve(server));
  });
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  app.use(mcpAuthMetadataRouter({ oauthMetadata: metadata as never, resourceServerUrl: new URL(url), scopesSupported: ['mcp:tools'] }));
  const bearer = requireBearerAuth({ verifier, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(url)), expectedResource: new URL(url) });
  app.use('/mcp', (req: unknown, res: { statusCode: number; on(e: string, f: () => void): void }, next: () => void) => {
    res.on('finish', () => (res.statusCode === 401 ? refused++ : accepted++));
    bearer(req, res, next);
  });
  app.use('/mcp', express.json());
  app.all('/mcp', async (req: { auth?: { extra?: Record<string, unknown>; scopes: string[] }; body: unknown }, res: unknown) => {
    const server = new Server({ name: 'protected-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'whoami', description: 'Who the token says the caller is', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
    }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({
      content: [{ type: 'text', text: JSON.stringify({ sub: req.auth?.extra?.sub, aud: req.auth?.extra?.aud, scopes: req.auth?.scopes }) }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await server.connect(transport);
    await transport.handleRequest(req as never, res as never, req.body);
  });
  return {
    url,
    get accepted() {
      return accepted;
    },
    get refused() {
      return refused;
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
    },
  };
}
