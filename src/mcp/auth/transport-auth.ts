import type { AuthProvider, FetchLike } from '@modelcontextprotocol/client';
import type { McpClientModule } from '../load-client.js';
import type { McpStoredTokens } from './auth-records.js';
import type { BrowserOAuthProvider } from './browser-provider.js';
import { withServerLock } from './server-lock.js';

/** Refresh this long before the access token expires (a short-lived token: once half its life is spent). */
const REFRESH_EARLY_MS = 60_000;

/**
 * What the transport asks before each request and after a 401: the access token, refreshed
 * before it expires, and the client's own `auth()` on a 401. Both hold the server's lock
 * (`withServerLock`), and a 401 first checks whether another realm refreshed meanwhile. An
 * `AuthProvider` rather than the `OAuthClientProvider` itself, so that the lock wraps the
 * client's refresh too. When `auth()` ends in a login to give, the transport's request fails
 * with `UnauthorizedError` and `provider.pendingLogin` says which.
 */
export class TransportAuth implements AuthProvider {
  constructor(
    readonly mcp: McpClientModule,
    readonly provider: BrowserOAuthProvider,
    readonly fetchFn: FetchLike,
  ) {}

  async token(): Promise<string | undefined> {
    const tokens = await this.provider.tokens();
    if (!tokens || !dueForRefresh(tokens)) return tokens?.access_token;
    const refreshed = await withServerLock(this.provider.server, async () => {
      const current = await this.provider.tokens();
      if (!current || !dueForRefresh(current)) return current;
      // The client's own flow: the refresh grant with its resource indicator and issuer checks.
      // A refresh that fails leaves the token as it is; the server's 401 then runs the full flow.
      await this.mcp.auth(this.provider, { serverUrl: this.provider.serverUrl, fetchFn: this.fetchFn }).catch(() => undefined);
      return this.provider.tokens();
    });
    return refreshed?.access_token;
  }

  async onUnauthorized({ response, serverUrl, fetchFn }: { response: Response; serverUrl: URL; fetchFn: FetchLike }): Promise<void> {
    const { resourceMetadataUrl, scope } = this.mcp.extractWWWAuthenticateParams(response);
    // A login an earlier 401 began is not this one's outcome: only what this flow begins is.
    this.provider.pendingLogin = undefined;
    const refused = (await this.provider.tokens())?.access_token;
    await withServerLock(this.provider.server, async () => {
      // Another tab or worker refreshed while this one waited: its token is the one to try.
      const now = (await this.provider.tokens())?.access_token;
      if (now !== undefined && now !== refused) return;
      const result = await this.mcp.auth(this.provider, {
        serverUrl,
        ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}),
        ...(scope ? { scope } : {}),
        fetchFn,
      });
      if (result !== 'AUTHORIZED') throw new this.mcp.UnauthorizedError('A login is needed');
    });
  }
}

/** Whether an access token is near enough its end to refresh (only one that can be refreshed). */
function dueForRefresh(tokens: McpStoredTokens): boolean {
  if (!tokens.refresh_token || tokens.expiresAt === undefined) return false;
  const lifetime = tokens.obtainedAt !== undefined ? tokens.expiresAt - tokens.obtainedAt : Number.POSITIVE_INFINITY;
  return Date.now() >= tokens.expiresAt - Math.min(REFRESH_EARLY_MS, lifetime / 2);
}
