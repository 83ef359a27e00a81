import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { McpError } from '../../errors/mcp-error.js';
import type { McpLoginRecord, McpStoredTokens } from './auth-records.js';
import { readServerAuth, saveLogin, serverKey, updateServerAuth } from './auth-store.js';
import type { BrowserOAuth } from './oauth-config.js';

/** A login the person still has to give: the page opens `authorizationUrl` (see `mcpLogin`). */
export interface PendingLogin {
  authorizationUrl: string;
}

/**
 * The MCP client's `OAuthClientProvider` for one server, in a browser realm (a page or the runner
 * worker): credentials in IndexedDB (`auth-store`), the PKCE verifier and the authorization
 * server's discovery kept with the login begun, so the app's redirect page can finish it (the
 * callback must come from the authorization server the login went to). It never opens a window:
 * a worker cannot, and a popup needs the person's click. `redirectToAuthorization` records the
 * login and `pendingLogin` holds it, which becomes `mcp_auth_required`.
 */
export class BrowserOAuthProvider implements OAuthClientProvider {
  readonly server: string;
  readonly clientMetadataUrl: string | undefined;
  /** The login the last authorization began, until one is finished. */
  pendingLogin: PendingLogin | undefined;
  #verifier: string | undefined;
  #discovery: OAuthDiscoveryState | undefined;
  /** Every token value this provider has read or stored: taken out of any message (see session.hide). */
  readonly #seen = new Set<string>();

  constructor(
    readonly serverUrl: string,
    readonly auth: BrowserOAuth,
    /** The login a callback finishes: its verifier and the authorization server it went to. */
    login?: McpLoginRecord,
  ) {
    this.server = serverKey(serverUrl);
    this.clientMetadataUrl = auth.clientMetadataUrl;
    this.#verifier = login?.codeVerifier;
    this.#discovery = login?.discovery;
  }

  get redirectUrl(): string {
    return this.auth.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.auth.clientName ?? 'ambi-web',
      redirect_uris: [this.auth.redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A page holds no secret: a public client, PKCE in its place.
      token_endpoint_auth_method: 'none',
      ...(this.auth.scope !== undefined ? { scope: this.auth.scope } : {}),
    };
  }

  state(): string {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    return btoa(String.fromCharCode(...bytes))
      .replaceAll('+', '-')
      .replaceAll('/', '_')
      .replace(/=+$/, '');
  }

  async clientInformation(): Promise<StoredOAuthClientInformation | undefined> {
    return (await readServerAuth(this.server))?.client;
  }

  async saveClientInformation(client: StoredOAuthClientInformation): Promise<void> {
    await updateServerAuth(this.server, (record) => ({ ...record, client }));
  }

  async tokens(): Promise<McpStoredTokens | undefined> {
    const tokens = (await readServerAuth(this.server))?.tokens;
    this.#remember(tokens);
    return tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    const now = Date.now();
    const lifetime = typeof tokens.expires_in === 'number' && tokens.expires_in > 0 ? tokens.expires_in * 1000 : undefined;
    const stored: McpStoredTokens = { ...tokens, ...(lifetime !== undefined ? { expiresAt: now + lifetime, obtainedAt: now } : {}) };
    this.#remember(stored);
    const discovery = this.#discovery;
    await updateServerAuth(this.server, (record) => ({ ...record, tokens: stored, ...(discovery ? { discovery } : {}) }));
    this.pendingLogin = undefined;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const state = authorizationUrl.searchParams.get('state');
    if (!state || !this.#verifier) throw new McpError('mcp_auth_failed', 'The login could not be begun: no state or PKCE verifier was made for it');
    await saveLogin({
      state,
      server: this.server,
      serverUrl: this.serverUrl,
      auth: this.auth,
      authorizationUrl: authorizationUrl.href,
      codeVerifier: this.#verifier,
      ...(this.#discovery ? { discovery: this.#discovery } : {}),
      createdAt: Date.now(),
    });
    this.pendingLogin = { authorizationUrl: authorizationUrl.href };
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (this.#verifier === undefined) throw new McpError('mcp_auth_failed', 'No login is under way for this callback (its PKCE verifier is gone)');
    return this.#verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.#discovery;
  }

  /** What the client asks to forget after the authorization server refused it (`invalid_grant`, `invalid_client`). */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'all') this.#verifier = undefined;
    if (scope === 'discovery' || scope === 'all') this.#discovery = undefined;
    if (scope === 'verifier' || scope === 'discovery') return;
    await updateServerAuth(this.server, ({ client, tokens, ...rest }) => ({
      ...rest,
      ...(scope === 'tokens' && client ? { client } : {}),
      ...(scope === 'client' && tokens ? { tokens } : {}),
    }));
  }

  /** The token values this provider has handled, longest first: what an error message must not show. */
  secrets(): string[] {
    return [...this.#seen].sort((a, b) => b.length - a.length);
  }

  #remember(tokens: StoredOAuthTokens | undefined): void {
    for (const value of [tokens?.access_token, tokens?.refresh_token, tokens?.id_token])
      if (typeof value === 'string' && value.length >= 6) this.#seen.add(value);
  }
}
