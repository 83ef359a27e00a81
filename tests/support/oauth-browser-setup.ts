// Vitest globalSetup of the browser project's MCP login tests (tests/browser/mcp-oauth*.test.ts): two
// real authorization servers (oidc-provider), each in front of an MCP server of the server SDK that
// takes only its tokens, a server of client ID metadata documents, and a control endpoint through
// which a test sets token lifetimes and reads what each server was asked.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startAuthorizationServer, type AuthorizationServer } from './oauth/authorization-server.js';
import { startMetadataDocumentServer } from './oauth/metadata-document-server.js';
import { MCP_CORS, startProtectedMcpServer, type ProtectedMcpServer } from './oauth/protected-mcp-server.js';

/** One authorization server and the MCP server behind it, as a test sees them. */
export interface OAuthPeers {
  issuer: string;
  mcpUrl: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Registration only (no client ID metadata documents). */
    oauthDcr: OAuthPeers;
    /** Client ID metadata documents and registration; `metadataDocuments` is the documents' https origin. */
    oauthCimd: OAuthPeers & { metadataDocuments: string };
    /** The registration-only authorization server in front of an MCP server whose CORS omits `mcp-protocol-version`. */
    oauthCorsMissing: OAuthPeers & { missing: string };
    /** POST `/ttl?server=dcr|cimd&access=S&refresh=S`, GET `/seen` (each server's requests and counts). */
    oauthControlUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const documents = await startMetadataDocumentServer();
  let dcrMcp: ProtectedMcpServer | undefined;
  let cimdMcp: ProtectedMcpServer | undefined;
  let corsMissingMcp: ProtectedMcpServer | undefined;
  // The registration-only server issues tokens for either of its MCP servers (the one it is asked for).
  const dcr = await startAuthorizationServer({ resources: () => [dcrMcp?.url ?? '', corsMissingMcp?.url ?? ''] });
  const cimd = await startAuthorizationServer({ resources: () => [cimdMcp?.url ?? ''], metadataDocuments: true, fetch: documents.fetch });
  dcrMcp = await startProtectedMcpServer({ issuer: dcr.issuer });
  cimdMcp = await startProtectedMcpServer({ issuer: cimd.issuer });
  corsMissingMcp = await startProtectedMcpServer({
    issuer: dcr.issuer,
    cors: { ...MCP_CORS, allowHeaders: MCP_CORS.allowHeaders.filter((header) => header !== 'mcp-protocol-version') },
  });
  const servers: Record<string, { as: AuthorizationServer; mcp: ProtectedMcpServer }> = {
    dcr: { as: dcr, mcp: dcrMcp },
    cimd: { as: cimd, mcp: cimdMcp },
  };
  const control = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    const url = new URL(req.url ?? '/', 'http://control');
    if (req.method === 'POST' && url.pathname === '/ttl') {
      const server = servers[url.searchParams.get('server') ?? ''];
      const seconds = (name: string) => (url.searchParams.has(name) ? Number(url.searchParams.get(name)) : undefined);
      server?.as.setTtl({ accessToken: seconds('access'), refreshToken: seconds('refresh') });
      return void res.writeHead(server ? 204 : 404).end();
    }
    if (url.pathname === '/seen') {
      const seen = Object.fromEntries(
        Object.entries(servers).map(([name, { as, mcp }]) => [name, { requests: as.requests, accepted: mcp.accepted, refused: mcp.refused }]),
      );
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...seen, documents: documents.served }));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
  project.provide('oauthDcr', { issuer: dcr.issuer, mcpUrl: dcrMcp.url });
  project.provide('oauthCimd', { issuer: cimd.issuer, mcpUrl: cimdMcp.url, metadataDocuments: new URL(documents.clientIdFor('x')).origin });
  project.provide('oauthCorsMissing', { issuer: dcr.issuer, mcpUrl: corsMissingMcp.url, missing: 'mcp-protocol-version' });
  project.provide('oauthControlUrl', `http://127.0.0.1:${(control.address() as AddressInfo).port}`);
  return async () => {
    control.closeAllConnections();
    control.close();
    await Promise.all([dcrMcp?.close(), cimdMcp?.close(), corsMissingMcp?.close(), dcr.close(), cimd.close(), documents.close()]);
  };
}
