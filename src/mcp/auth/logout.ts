import { forgetServerAuth, serverKey } from './auth-store.js';

/** What `mcpLogout` takes. */
export interface McpLogoutOptions {
  /** Ask the authorization server to revoke the tokens too, where it has a revocation endpoint (default `true`). */
  revoke?: boolean;
}

/** What `mcpLogout` did. */
export interface McpLogoutResult {
  /** Whether tokens were stored for the server (and are now forgotten). */
  forgotten: boolean;
  /** Whether the authorization server accepted the revocation (RFC 7009) of the grant's refresh token (else of the access token). */
  revoked: boolean;
}

/** How long a revocation may take: signing out never waits on a server that does not answer. */
const REVOKE_TIMEOUT_MS = 5_000;

/**
 * Sign out of an MCP server: its tokens and client registration are forgotten in this origin (every
 * tab and worker: a connection's next request needs a login, `mcp_auth_required`), its logins under
 * way dropped, and the tokens revoked at the authorization server (RFC 7009) where it offers that.
 *
 * @example
 * ```ts
 * // Needs: a server connected with mcpServer({ url: 'https://mcp.example.com/mcp', auth: browserOAuth(...) }).
 * import { mcpLogout } from 'ambi-web';
 *
 * const { forgotten, revoked } = await mcpLogout('https://mcp.example.com/mcp');
 * console.log(forgotten, revoked);
 * ```
 */
export async function mcpLogout(serverUrl: string, options: McpLogoutOptions = {}): Promise<McpLogoutResult> {
  const record = await forgetServerAuth(serverKey(serverUrl));
  const tokens = record?.tokens;
  // OAuth metadata (RFC 8414) names it; OpenID metadata may too, as an extra field.
  const endpoint = (record?.discovery?.authorizationServerMetadata as { revocation_endpoint?: unknown } | undefined)?.revocation_endpoint;
  const clientId = record?.client?.client_id;
  if (!tokens) return { forgotten: false, revoked: false };
  if (options.revoke === false || typeof endpoint !== 'string' || !clientId) return { forgotten: true, revoked: false };
  // The refresh token where there is one: revoking it ends the grant, and with it (at most servers) its
  // access tokens; a JWT access token often cannot be revoked at all (it simply expires).
  const [token, hint] = tokens.refresh_token ? [tokens.refresh_token, 'refresh_token'] : [tokens.access_token, 'access_token'];
  return { forgotten: true, revoked: await revoke(endpoint, clientId, token, hint) };
}

async function revoke(endpoint: string, clientId: string, token: string, hint: string): Promise<boolean> {
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, token_type_hint: hint, client_id: clientId }),
      signal: AbortSignal.timeout(REVOKE_TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
