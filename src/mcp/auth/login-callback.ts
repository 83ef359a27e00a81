import { isAmbiError } from '../../errors/ambi-error.js';
import { McpError } from '../../errors/mcp-error.js';
import { loadMcpClient } from '../load-client.js';
import { hideSecrets } from '../secrets.js';
import type { McpLoginOutcome, McpLoginRecord } from './auth-records.js';
import { authFailure } from './auth-failure.js';
import { readLogin, updateLogin } from './auth-store.js';
import { BrowserOAuthProvider } from './browser-provider.js';
import { announceLogin } from './login-channel.js';

/** What `finishMcpLogin` did. */
export interface McpLoginFinished {
  /** The server the login was for (its URL without query or fragment). */
  server: string;
  /** Where a login by redirect goes back to (the page that began it). */
  returnTo?: string;
}

/** What `finishMcpLogin` takes. */
export interface FinishMcpLoginOptions {
  /** The callback URL (default: this page's). */
  url?: string;
  /** Close the login window, or go back to the page that began a login by redirect (default `true`). */
  navigate?: boolean;
}

/**
 * Finish a login on the app's redirect page (`browserOAuth({ redirectUri })`): checks that the
 * answer comes from the authorization server the login was sent to (its `iss`, RFC 9207: a mix-up
 * is refused and the code never used), redeems the code with the PKCE verifier, stores the tokens,
 * and tells the page that opened the login (`mcpLogin` resolves). Then it closes the popup, or goes
 * back to the page that began a login by redirect. Rejects with `mcp_auth_denied` or `mcp_auth_failed`.
 *
 * @example
 * ```ts
 * // Needs: this page served at the redirectUri given to browserOAuth().
 * import { finishMcpLogin, isAmbiError } from 'ambi-web';
 *
 * try {
 *   await finishMcpLogin();
 * } catch (error) {
 *   document.body.textContent = isAmbiError(error, 'mcp_auth_denied') ? 'Sign-in cancelled.' : `Sign-in failed: ${(error as Error).message}`;
 * }
 * ```
 */
export async function finishMcpLogin(options: FinishMcpLoginOptions = {}): Promise<McpLoginFinished> {
  const params = new URL(options.url ?? location.href).searchParams;
  const state = params.get('state');
  if (!state) throw new McpError('mcp_auth_failed', 'finishMcpLogin: this page was not reached from a login (no state in its URL)');
  const login = await readLogin(state);
  if (!login) throw new McpError('mcp_auth_failed', 'finishMcpLogin: no login under way has this state (it expired, finished, or was never begun here)');
  // A reload of the redirect page: the code was redeemed (or refused) already, never twice.
  const outcome = login.outcome ?? (await redeem(login, params));
  if (login.outcome === undefined) {
    await updateLogin(state, { outcome });
    announceLogin({ state, outcome });
  }
  const finished = { server: login.server, ...(login.returnTo !== undefined ? { returnTo: login.returnTo } : {}) };
  if (!outcome.ok) throw new McpError(outcome.code, outcome.message);
  if (options.navigate !== false) {
    if (login.returnTo !== undefined) location.replace(login.returnTo);
    else if (typeof window !== 'undefined') window.close();
  }
  return finished;
}

/** The callback's answer, checked and redeemed: the tokens stored, or why not. */
async function redeem(login: McpLoginRecord, params: URLSearchParams): Promise<McpLoginOutcome> {
  const mcp = await loadMcpClient();
  const provider = new BrowserOAuthProvider(login.serverUrl, login.auth, login);
  const hide = (text: string) => hideSecrets(text, [...provider.secrets(), ...(login.codeVerifier ? [login.codeVerifier] : [])]);
  const code = params.get('code');
  const iss = params.get('iss') ?? undefined;
  try {
    if (code === null) {
      const metadata = login.discovery?.authorizationServerMetadata;
      // The issuer first: an error from another authorization server is an attacker's, and not read.
      mcp.validateAuthorizationResponseIssuer({
        iss,
        expectedIssuer: metadata?.issuer,
        issParameterSupported: metadata?.authorization_response_iss_parameter_supported === true,
      });
      throw new mcp.OAuthError(params.get('error') ?? 'invalid_request', params.get('error_description') ?? 'the callback carries neither a code nor an error');
    }
    const result = await mcp.auth(provider, { serverUrl: login.serverUrl, authorizationCode: code, ...(iss !== undefined ? { iss } : {}) });
    if (result !== 'AUTHORIZED') throw new McpError('mcp_auth_failed', 'The authorization server did not give tokens for the code');
    return { ok: true };
  } catch (error) {
    const failure = authFailure(mcp, login.serverUrl, error, hide);
    return { ok: false, code: isAmbiError(failure, 'mcp_auth_denied') ? 'mcp_auth_denied' : 'mcp_auth_failed', message: failure.message };
  }
}
