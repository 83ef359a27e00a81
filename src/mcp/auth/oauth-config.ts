import { McpError } from '../../errors/mcp-error.js';

/** How an MCP server's login runs in a browser, as plain data (it crosses to the runner worker with its `mcpServer` config). */
export interface BrowserOAuth {
  type: 'browser-oauth';
  /** The app's page that calls `finishMcpLogin()`; registered with the authorization server as the redirect URI. */
  redirectUri: string;
  /** An https URL where the app serves its client ID metadata document: used where the authorization server accepts one. */
  clientMetadataUrl?: string;
  /** The scopes to ask for (space-separated); default: what the server's metadata lists. */
  scope?: string;
  /** The app's name, as a dynamic registration shows it on the consent page (default `ambi-web`). */
  clientName?: string;
}

/** What `browserOAuth` takes. */
export type BrowserOAuthOptions = Omit<BrowserOAuth, 'type'>;

/**
 * OAuth 2.1 (authorization code with PKCE) for `mcpServer({ url, auth })`: the login opens in a popup
 * or by a redirect (`mcpLogin`), the app's redirect page finishes it (`finishMcpLogin`), and the tokens
 * are kept per server in IndexedDB and refreshed before they expire. Checked here.
 *
 * @example
 * ```ts
 * // Needs: an MCP server at https://mcp.example.com/mcp behind an OAuth 2.1 authorization server, and the app's page /oauth/callback calling finishMcpLogin().
 * import { browserOAuth, mcpServer } from 'ambi-web';
 *
 * const server = mcpServer({
 *   url: 'https://mcp.example.com/mcp',
 *   auth: browserOAuth({ redirectUri: `${location.origin}/oauth/callback`, scope: 'tools:read' }),
 * });
 * console.log(server.auth?.redirectUri);
 * ```
 */
export function browserOAuth(options: BrowserOAuthOptions): BrowserOAuth {
  return checkOAuth({ ...(options as object), type: 'browser-oauth' }, 'browserOAuth');
}

/** `value` as a BrowserOAuth, or `invalid_mcp_config` naming the field (`where` says who was given it). */
export function checkOAuth(value: unknown, where: string): BrowserOAuth {
  const fail = (detail: string): never => {
    throw new McpError('invalid_mcp_config', `${where}: ${detail}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('auth must be browserOAuth({ redirectUri, ... })');
  const { type, redirectUri, clientMetadataUrl, scope, clientName } = value as Record<string, unknown>;
  const known = new Set(['type', 'redirectUri', 'clientMetadataUrl', 'scope', 'clientName']);
  const unknown = Object.keys(value as object).filter((key) => !known.has(key));
  if (unknown.length > 0) fail(`auth has unknown field(s) ${unknown.join(', ')}`);
  if (type !== 'browser-oauth') fail('auth must be made by browserOAuth()');
  if (typeof redirectUri !== 'string' || !isUrl(redirectUri, ['http:', 'https:']) || new URL(redirectUri).hash !== '')
    fail('auth.redirectUri must be an absolute http(s) URL without a fragment');
  // The MCP spec: a client ID metadata document's URL is https with a path.
  if (
    clientMetadataUrl !== undefined &&
    !(typeof clientMetadataUrl === 'string' && isUrl(clientMetadataUrl, ['https:']) && new URL(clientMetadataUrl).pathname !== '/')
  )
    fail('auth.clientMetadataUrl must be an https URL with a path');
  if (scope !== undefined && (typeof scope !== 'string' || scope.trim() === '')) fail('auth.scope must be a non-empty string of space-separated scopes');
  if (clientName !== undefined && (typeof clientName !== 'string' || clientName === '')) fail('auth.clientName must be a non-empty string');
  return {
    type: 'browser-oauth',
    redirectUri: redirectUri as string,
    ...(clientMetadataUrl !== undefined ? { clientMetadataUrl: clientMetadataUrl as string } : {}),
    ...(scope !== undefined ? { scope: scope as string } : {}),
    ...(clientName !== undefined ? { clientName: clientName as string } : {}),
  };
}

function isUrl(text: string, protocols: readonly string[]): boolean {
  try {
    return protocols.includes(new URL(text).protocol);
  } catch {
    return false;
  }
}
