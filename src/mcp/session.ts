import type { Client } from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import { errorMessage } from '../errors/error-message.js';
import { callFailure, isSessionExpired } from './call-failure.js';
import type { McpServerConfig } from './config.js';
import { displayUrl } from './display-url.js';
import { loadMcpClient, type McpClientModule } from './load-client.js';
import { guardedFetch } from './stream-guard.js';
import type { McpCallResult } from './tool-output.js';

/** A server tool's definition as listed (`tools/list`). */
export interface McpToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; [key: string]: unknown };
  [key: string]: unknown;
}

/** What one call asks of the session. */
export interface McpCallOptions {
  signal: AbortSignal;
  /** Our own deadline aborts `signal`; the client's is set past it, as a backstop only. */
  timeoutMs: number;
  onprogress: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Whether the tool's definition is still the pinned one: asked again after reconnecting, before the call is sent again. */
  pinned: () => boolean;
}

/** Past our own deadline: the client's timer must never be the one that fires. */
const CLIENT_TIMEOUT_GRACE_MS = 5_000;

/**
 * One Streamable HTTP session with a server, through the official client: connects,
 * lists, calls; reconnects once when the server says the session expired. The client's
 * own JSON Schema validator is replaced by one that checks nothing: arguments and
 * outputs are validated by this SDK, in the realm's validation mode (no eval in `no-eval`).
 */
export class McpSession {
  #client: Client;
  #reconnecting: Promise<Client> | undefined;
  #closed = false;

  private constructor(
    readonly mcp: McpClientModule,
    readonly config: McpServerConfig,
    client: Client,
    /** Told of every list the server gives after connection (announced changes, reconnects). */
    readonly onToolsListed: (tools: McpToolDefinition[]) => void,
    readonly serverName: string | undefined,
  ) {
    this.#client = client;
  }

  /** Connect and initialise; rejects with `mcp_connect_failed` (the URL shown without credentials). */
  static async open(config: McpServerConfig, onToolsListed: (tools: McpToolDefinition[]) => void): Promise<McpSession> {
    const mcp = await loadMcpClient();
    let session: McpSession | undefined;
    const client = await connectClient(mcp, config, (tools) => session?.onToolsListed(tools));
    session = new McpSession(mcp, config, client, onToolsListed, client.getServerVersion()?.name);
    return session;
  }

  /** Every tool the server lists now. */
  async listTools(): Promise<McpToolDefinition[]> {
    try {
      return (await this.#client.listTools()).tools as McpToolDefinition[];
    } catch (error) {
      throw connectFailure(this.config, error, 'listing its tools');
    }
  }

  /** Call `name`; a failure is thrown as a ToolError (the server's own error) or an McpError (`mcp_unavailable`, `invalid_output`). */
  async callTool(name: string, args: unknown, options: McpCallOptions, definition: McpToolDefinition): Promise<McpCallResult> {
    const { signal } = options;
    const request = { name, arguments: args as Record<string, unknown> };
    // The pinned definition without its outputSchema: the client then checks no output (we do, against the pinned one).
    const { outputSchema: _, ...pinned } = definition;
    const send = (client: Client) =>
      client.callTool(request, {
        signal,
        timeout: options.timeoutMs + CLIENT_TIMEOUT_GRACE_MS,
        onprogress: options.onprogress,
        toolDefinition: pinned as never,
      });
    const client = this.#client;
    try {
      return (await send(client)) as McpCallResult;
    } catch (error) {
      if (signal.aborted) throw error;
      if (!isSessionExpired(this.mcp, error)) throw callFailure(this.mcp, name, error, (text) => hideUrl(this.config, text));
    }
    // The server forgot the session (it expired, or the server restarted): one new session, one more try,
    // unless the new session lists another definition of this tool (it is withdrawn by then).
    try {
      const fresh = await this.#reconnect(client);
      if (!options.pinned())
        throw new McpError('tool_changed', `Tool "${name}" changed on the MCP server while reconnecting; it is withdrawn until the connection is refreshed`);
      return (await send(fresh)) as McpCallResult;
    } catch (error) {
      if (signal.aborted || error instanceof McpError) throw error;
      throw callFailure(this.mcp, name, error, (text) => hideUrl(this.config, text));
    }
  }

  /** End the session (the server is told, where it listens for that). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#client.close().catch(() => {});
  }

  /** A new client in place of `stale`, shared by the calls that found it stale; its tool list goes to `onToolsListed`. */
  #reconnect(stale: Client): Promise<Client> {
    if (this.#client !== stale) return Promise.resolve(this.#client);
    this.#reconnecting ??= (async () => {
      try {
        void stale.close().catch(() => {});
        const client = await connectClient(this.mcp, this.config, (tools) => this.onToolsListed(tools)).catch((error: unknown) => {
          throw new McpError('mcp_unavailable', `The MCP session expired and reconnecting failed: ${errorMessage(error)}`);
        });
        if (this.#closed) {
          await client.close().catch(() => {});
          throw new McpError('mcp_unavailable', 'The MCP connection was closed');
        }
        this.#client = client;
        this.onToolsListed((await client.listTools()).tools as McpToolDefinition[]);
        return client;
      } finally {
        this.#reconnecting = undefined;
      }
    })();
    return this.#reconnecting;
  }
}

/** A connected, initialised client; `mcp_connect_failed` otherwise. */
async function connectClient(mcp: McpClientModule, config: McpServerConfig, onToolsListed: (tools: McpToolDefinition[]) => void): Promise<Client> {
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
  const transport = new mcp.StreamableHTTPClientTransport(new URL(config.url), {
    fetch: guardedFetch(),
    ...(config.headers ? { requestInit: { headers: config.headers } } : {}),
  });
  try {
    await client.connect(transport);
    return client;
  } catch (error) {
    await client.close().catch(() => {});
    throw connectFailure(config, error, 'connecting');
  }
}

function connectFailure(config: McpServerConfig, error: unknown, doing: string): McpError {
  return new McpError('mcp_connect_failed', `Could not use the MCP server at ${displayUrl(config.url)} (${doing}): ${hideUrl(config, errorMessage(error))}`);
}

/** `text` with the server's full URL (which may hold a user-info or a token in its query) shown as `displayUrl` shows it. */
function hideUrl(config: McpServerConfig, text: string): string {
  const shown = displayUrl(config.url);
  let href = config.url;
  try {
    href = new URL(config.url).href;
  } catch {}
  return text.replaceAll(config.url, shown).replaceAll(href, shown);
}
