import { McpError } from '../../errors/mcp-error.js';
import { errorMessage } from '../../errors/error-message.js';
import { displayUrl } from '../display-url.js';
import type { McpClientModule } from '../load-client.js';
import type { PendingLogin } from './browser-provider.js';

/** What an `mcp_auth_required` error carries: the login to give, as plain data (it crosses from the runner worker). */
export interface McpLoginRequest {
  /** The server that needs the login (its URL without query or fragment). */
  server: string;
  /** The authorization server's page the person opens: `mcpLogin(error)` opens it from a click. */
  authorizationUrl: string;
}

/** The longest part of an authorization server's own words a message repeats. */
const MAX_DETAIL = 200;

/**
 * `mcp_auth_required`: the server needs a login the person has not given. The message names the
 * server only (it may reach the model, as a failed call's result); the fields carry the login.
 */
export function loginRequired(serverUrl: string, login: PendingLogin): McpError & McpLoginRequest {
  const server = displayUrl(serverUrl);
  const error = new McpError('mcp_auth_required', `The MCP server at ${server} needs the person to sign in; the app offers the login (mcpLogin)`);
  return Object.assign(error, { server, authorizationUrl: login.authorizationUrl });
}

/** Whether `error` came from the client's OAuth flow (an authorization server's answer, or a check of it). */
export function isAuthError(mcp: McpClientModule, error: unknown): boolean {
  return error instanceof mcp.OAuthError || error instanceof mcp.OAuthClientFlowError || error instanceof mcp.UnauthorizedError;
}

/**
 * What a failed login becomes: `mcp_auth_denied` for a refusal (`access_denied`), else
 * `mcp_auth_failed` saying which check failed. An issuer mix-up never repeats the issuer received
 * or the callback's error text (an attacker's words, in that case); other text is cut, with the
 * credentials `hide` knows taken out.
 */
export function authFailure(mcp: McpClientModule, serverUrl: string, error: unknown, hide: (text: string) => string): McpError {
  const server = displayUrl(serverUrl);
  const failed = (why: string) => new McpError('mcp_auth_failed', `The login to the MCP server at ${server} failed: ${why}`);
  if (error instanceof McpError) return error;
  if (error instanceof mcp.IssuerMismatchError)
    return failed(
      error.kind === 'authorization_response'
        ? `the answer names another authorization server than the one the login went to (expected ${error.expected ?? 'none'}); refused as a possible mix-up attack, the code was not used`
        : `the authorization server's metadata names another issuer than its own address (expected ${error.expected ?? 'none'}); refused`,
    );
  if (error instanceof mcp.AuthorizationServerMismatchError)
    return failed(`the login began with ${error.recordedIssuer} but the server now names ${error.currentIssuer}; refused, begin the login again`);
  if (error instanceof mcp.RegistrationRejectedError)
    return failed(`the authorization server refused to register this app (HTTP ${error.status}); give a clientMetadataUrl, or register the app there`);
  if (error instanceof mcp.InsufficientScopeError) return failed(`the server asks for more scope (${cut(hide(error.requiredScope ?? 'unnamed'))})`);
  if (error instanceof mcp.OAuthError) {
    if (error.code === 'access_denied') return new McpError('mcp_auth_denied', `The login to the MCP server at ${server} was refused (access_denied)`);
    return failed(`the authorization server answered ${error.code}: ${cut(hide(error.message))}`);
  }
  return failed(cut(hide(errorMessage(error))));
}

function cut(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
}
