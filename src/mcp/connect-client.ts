import type { Client, Transport } from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import { errorMessage } from '../errors/error-message.js';
import type { McpServerConfig } from './config.js';
import type { ConnectDeadline } from './connect-deadline.js';
import { displayUrl } from './display-url.js';
import type { McpClientModule } from './load-client.js';
import { hideSecrets } from './secrets.js';
import type { McpToolDefinition } from './tool-definition.js';
import { guardedFetch } from './stream-guard.js';
import { authFailure, isAuthError, loginRequired } from './auth/auth-failure.js';
import type { TransportAuth } from './auth/transport-auth.js';
import { withTaskResults } from './tasks/task-results.js';
import { TASKS_EXTENSION } from './tasks/task-wire.js';

/**
 * A connected, initialised client, within `deadline`; `mcp_connect_failed` (or `aborted`) otherwise,
 * with no secret in its message. MCP 2026-07-28 where the server speaks it (a `server/discover`
 * probe first), else the 2025 handshake; a probe the network refuses (a 2025 server whose CORS
 * does not allow the probe's headers) is followed by the 2025 handshake.
 */
export async function connectClient(
  mcp: McpClientModule,
  config: McpServerConfig,
  secrets: readonly string[],
  deadline: ConnectDeadline,
  onToolsListed: (tools: McpToolDefinition[]) => void,
  /** The login of a server with `auth`: the transport asks it for the token, and tells it of a 401. */
  auth?: TransportAuth,
): Promise<Client> {
  const connect = (mode: 'auto' | 'legacy') => connectOnce(mcp, config, deadline, onToolsListed, mode, auth);
  try {
    return await connect('auto').catch((error: unknown) => {
      if (!probeRefused(mcp, error) || deadline.signal.aborted) throw error;
      return connect('legacy');
    });
  } catch (error) {
    throw connectFailure(config, secrets, error, 'connecting', auth);
  }
}

/** Whether connecting failed at the version probe for want of an answer (the network, or a browser's CORS, refused it). */
function probeRefused(mcp: McpClientModule, error: unknown): boolean {
  return error instanceof mcp.SdkError && error.code === mcp.SdkErrorCode.EraNegotiationFailed && error.cause instanceof TypeError;
}

/** One attempt to connect in `mode`: the client, or the error as it came (the client and its transport closed). */
async function connectOnce(
  mcp: McpClientModule,
  config: McpServerConfig,
  deadline: ConnectDeadline,
  onToolsListed: (tools: McpToolDefinition[]) => void,
  mode: 'auto' | 'legacy',
  auth: TransportAuth | undefined,
): Promise<Client> {
  const client = new mcp.Client(
    { name: 'ambi-web', version: '0.1.0' },
    {
      // Calls the server answers with a task are followed (src/mcp/tasks): the Tasks extension. Forms a
      // server asks to be filled during a call reach the person (src/mcp/input): form elicitation.
      capabilities: { extensions: { [TASKS_EXTENSION]: {} }, elicitation: { form: {} } },
      versionNegotiation: { mode },
      // A server's questions (`input_required`) are handed back to the call, which asks the person.
      inputRequired: { autoFulfill: false },
      // Never asked to validate: outputs are checked by this SDK against the pinned schemas.
      jsonSchemaValidator: { getValidator: () => (input: unknown) => ({ valid: true, data: input as never, errorMessage: undefined }) },
      listChanged: {
        tools: {
          debounceMs: 0,
          onChanged: (error, tools) => {
            if (!error && tools) onToolsListed(tools as McpToolDefinition[]);
          },
        },
      },
    },
  );
  // A 2025-era server asks by a request of its own, outside any call a person could answer for: declined.
  client.setRequestHandler('elicitation/create', () => ({ action: 'decline' as const }));
  let transport: Transport | undefined;
  try {
    // Inside the try: the transport builds the request's Headers, which refuse (and quote) a bad value.
    transport = withTaskResults(
      new mcp.StreamableHTTPClientTransport(new URL(config.url), {
        fetch: guardedFetch(undefined, config.url),
        ...(auth ? { authProvider: auth } : {}),
        ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
      }),
    );
    await deadline.within(client.connect(transport, { signal: deadline.signal, timeout: deadline.timeoutMs }));
    return client;
  } catch (error) {
    // Closing ends the transport's requests: one a server never answered is given up on. The
    // transport itself too: the version probe (`server/discover`) is sent before the client owns it.
    await client.close().catch(() => {});
    await transport?.close().catch(() => {});
    throw error;
  }
}

/**
 * What a failure to connect, initialise or list becomes: the deadline's own error; a login to give
 * (`mcp_auth_required`) or a failed one (`mcp_auth_denied`, `mcp_auth_failed`); else
 * `mcp_connect_failed` naming the URL safely, the HTTP status and the cause with the secrets taken out.
 */
export function connectFailure(config: McpServerConfig, secrets: readonly string[], error: unknown, doing: string, auth?: TransportAuth): McpError {
  if (error instanceof McpError && (error.code === 'aborted' || error.code === 'mcp_connect_failed')) return error;
  if (auth) {
    const failure = loginFailure(auth, config.url, error, (text) => hideSecrets(text, [...secrets, ...auth.provider.secrets()]));
    if (failure) return failure;
  }
  const status = (error as { status?: unknown } | null)?.status;
  const http = typeof status === 'number' ? ` (HTTP ${status})` : '';
  return new McpError(
    'mcp_connect_failed',
    `Could not use the MCP server at ${displayUrl(config.url)} (${doing})${http}: ${hideSecrets(errorMessage(error), secrets)}`,
  );
}

/** The login's part in a failure, if it has one: the login still to give, or why one failed. */
export function loginFailure(auth: TransportAuth, serverUrl: string, error: unknown, hide: (text: string) => string): McpError | undefined {
  const refused = (error as { status?: unknown } | null)?.status === 401;
  if (!refused && !isAuthError(auth.mcp, error) && !(error instanceof McpError && error.code.startsWith('mcp_auth_'))) return undefined;
  const pending = auth.provider.pendingLogin;
  return pending ? loginRequired(serverUrl, pending) : authFailure(auth.mcp, serverUrl, error, hide);
}
