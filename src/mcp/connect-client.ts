import type { Client } from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import { errorMessage } from '../errors/error-message.js';
import type { McpServerConfig } from './config.js';
import type { ConnectDeadline } from './connect-deadline.js';
import { displayUrl } from './display-url.js';
import type { McpClientModule } from './load-client.js';
import { hideSecrets } from './secrets.js';
import type { McpToolDefinition } from './tool-definition.js';
import { guardedFetch } from './stream-guard.js';

/** A connected, initialised client, within `deadline`; `mcp_connect_failed` (or `aborted`) otherwise, with no secret in its message. */
export async function connectClient(
  mcp: McpClientModule,
  config: McpServerConfig,
  secrets: readonly string[],
  deadline: ConnectDeadline,
  onToolsListed: (tools: McpToolDefinition[]) => void,
): Promise<Client> {
  const client = new mcp.Client(
    { name: 'ambi-web', version: '0.1.0' },
    {
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
  try {
    // Inside the try: the transport builds the request's Headers, which refuse (and quote) a bad value.
    const transport = new mcp.StreamableHTTPClientTransport(new URL(config.url), {
      fetch: guardedFetch(),
      ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
    });
    await deadline.within(client.connect(transport, { signal: deadline.signal, timeout: deadline.timeoutMs }));
    return client;
  } catch (error) {
    // Closing ends the transport's requests: one a server never answered is given up on.
    await client.close().catch(() => {});
    throw connectFailure(config, secrets, error, 'connecting');
  }
}

/** What a failure to connect, initialise or list becomes: the deadline's own error, else `mcp_connect_failed` naming the URL safely, the HTTP status and the cause with the secrets taken out. */
export function connectFailure(config: McpServerConfig, secrets: readonly string[], error: unknown, doing: string): McpError {
  if (error instanceof McpError && (error.code === 'aborted' || error.code === 'mcp_connect_failed')) return error;
  const status = (error as { status?: unknown } | null)?.status;
  const http = typeof status === 'number' ? ` (HTTP ${status})` : '';
  return new McpError(
    'mcp_connect_failed',
    `Could not use the MCP server at ${displayUrl(config.url)} (${doing})${http}: ${hideSecrets(errorMessage(error), secrets)}`,
  );
}
