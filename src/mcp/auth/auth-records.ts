/*
 * What the OAuth of MCP servers keeps in IndexedDB (the `mcpAuth` and `mcpLogins` stores of the
 * ambi-web database): types only. Credentials live here and in memory, nowhere else: never in
 * localStorage, a message, an event, a cassette or a span.
 */
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { BrowserOAuth } from './oauth-config.js';

/** Tokens as stored: the authorization server's answer, stamped with its issuer and when the access token expires. */
export type McpStoredTokens = StoredOAuthTokens & {
  /** `Date.now()` at which the access token expires (from `expires_in`); absent when the server said nothing. */
  expiresAt?: number;
  /** `Date.now()` when they were obtained: a token is refreshed once most of its life is spent. */
  obtainedAt?: number;
};

/** One MCP server's credentials, keyed by the server (its URL without query or fragment). */
export interface McpServerAuthRecord {
  server: string;
  /** This app as a client of the server's authorization server (a metadata document URL, or a registration). */
  client?: StoredOAuthClientInformation;
  tokens?: McpStoredTokens;
  /** Where the authorization server was found and what it said (for refreshing and revoking). */
  discovery?: OAuthDiscoveryState;
}

/** How a login ended, for the page that waits for it (`mcpLogin`). */
export type McpLoginOutcome = { ok: true } | { ok: false; code: 'mcp_auth_denied' | 'mcp_auth_failed'; message: string };

/** A login begun (the person sent to the authorization server) and not yet finished, keyed by its `state`. */
export interface McpLoginRecord {
  state: string;
  /** The server's key (see `McpServerAuthRecord.server`). */
  server: string;
  /** The server's URL as configured: the resource the token is for. */
  serverUrl: string;
  auth: BrowserOAuth;
  /** The authorization server's page the person is sent to. */
  authorizationUrl: string;
  /** The PKCE verifier; dropped once the login has an outcome. */
  codeVerifier?: string;
  /** The authorization server the login was sent to: the callback must come from the same one. */
  discovery?: OAuthDiscoveryState;
  createdAt: number;
  /** Where a login by redirect goes back to once it is finished. */
  returnTo?: string;
  outcome?: McpLoginOutcome;
}
