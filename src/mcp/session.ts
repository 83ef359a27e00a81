import type { Client } from '@modelcontextprotocol/client';
import { McpError } from '../errors/mcp-error.js';
import { isAmbiError } from '../errors/ambi-error.js';
import { errorMessage } from '../errors/error-message.js';
import { callFailure, isSessionExpired } from './call-failure.js';
import type { McpServerConfig } from './config.js';
import { connectClient, connectFailure, loginFailure } from './connect-client.js';
import { BrowserOAuthProvider } from './auth/browser-provider.js';
import { TransportAuth } from './auth/transport-auth.js';
import { followTask } from './tasks/follow-task.js';
import type { AskInput, InputReply, InputRound } from './input/ask-person.js';
import { TASK_META, type McpTask } from './tasks/task-wire.js';
import { ConnectDeadline, DEFAULT_CONNECT_TIMEOUT_MS } from './connect-deadline.js';
import { loadMcpClient, type McpClientModule } from './load-client.js';
import { configSecrets, hideSecrets } from './secrets.js';
import type { McpToolDefinition } from './tool-definition.js';
import type { McpCallResult } from './tool-output.js';
import type { TraceContext } from '../tools/types.js';

/** What one call asks of the session. */
export interface McpCallOptions {
  signal: AbortSignal;
  /** Our own deadline aborts `signal`; the client's is set past it, as a backstop only. */
  timeoutMs: number;
  onprogress: (progress: { progress: number; total?: number; message?: string }) => void;
  /** Whether the tool's definition is still the pinned one: asked again after reconnecting, before the call is sent again. */
  pinned: () => boolean;
  /** The W3C trace context of the call's span (a traced run): sent in the request's `_meta`. */
  trace?: TraceContext;
  /** Told the id of the task the server answered the call with (the Tasks extension), before it is followed. */
  onTask?: (taskId: string) => void;
  /** Asks the person the server's questions (`input_required`); without it a question ends the call. */
  askInput?: AskInput;
  /** Where the call stood before a reload (a resumed call): its task to follow, or its question to ask again. */
  resumeFrom?: { task: McpTask } | { question: InputRound };
}

/** Whether the server answered with questions (`resultType: 'input_required'`, MCP 2026-07-28) rather than a result. */
function isInputRequired(result: McpCallResult): result is McpCallResult & { inputRequests?: unknown; requestState?: unknown } {
  return (result as { resultType?: unknown }).resultType === 'input_required';
}

/** The state the server wants back with the answers, where it gave one (anything but text is refused when asked). */
function requestStateOf(result: { requestState?: unknown }): { requestState?: string } {
  return result.requestState === undefined ? {} : { requestState: result.requestState as string };
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
  /** The config's values that may be credentials, kept out of every message (see secrets.ts). */
  readonly #secrets: readonly string[];
  /** The login of a server with `auth`: one per session, so a reconnect reuses what it discovered. */
  readonly #auth: TransportAuth | undefined;

  private constructor(
    readonly mcp: McpClientModule,
    readonly config: McpServerConfig,
    client: Client,
    /** Told of every list the server gives after connection (announced changes, reconnects). */
    readonly onToolsListed: (tools: McpToolDefinition[]) => void,
    readonly serverName: string | undefined,
    secrets: readonly string[],
    auth: TransportAuth | undefined,
  ) {
    this.#client = client;
    this.#secrets = secrets;
    this.#auth = auth;
  }

  /** Connect and initialise within `deadline`; rejects with `mcp_connect_failed` or `aborted` (no credential in the message). */
  static async open(config: McpServerConfig, onToolsListed: (tools: McpToolDefinition[]) => void, deadline: ConnectDeadline): Promise<McpSession> {
    const mcp = await deadline.within(loadMcpClient());
    deadline.start();
    const secrets = configSecrets(config);
    const auth = config.auth ? new TransportAuth(mcp, new BrowserOAuthProvider(config.url, config.auth), globalThis.fetch.bind(globalThis)) : undefined;
    let session: McpSession | undefined;
    const client = await connectClient(mcp, config, secrets, deadline, (tools) => session?.onToolsListed(tools), auth);
    session = new McpSession(mcp, config, client, onToolsListed, client.getServerVersion()?.name, secrets, auth);
    return session;
  }

  /** Every tool the server lists now (within `deadline` when connecting). */
  async listTools(deadline?: ConnectDeadline): Promise<McpToolDefinition[]> {
    try {
      const listing = this.#client.listTools(undefined, deadline ? { signal: deadline.signal, timeout: deadline.timeoutMs } : undefined);
      return ((await (deadline ? deadline.within(listing) : listing)).tools ?? []) as McpToolDefinition[];
    } catch (error) {
      throw connectFailure(this.config, this.#secrets, error, 'listing its tools', this.#auth);
    }
  }

  /** `text` with the config's credentials (and the login's tokens) taken out. */
  hide(text: string): string {
    return hideSecrets(text, this.#auth ? [...this.#secrets, ...this.#auth.provider.secrets()] : this.#secrets);
  }

  /** Call `name`; a failure is thrown as a ToolError (the server's own error) or an McpError (`mcp_unavailable`, `invalid_output`). */
  async callTool(name: string, args: unknown, options: McpCallOptions, definition: McpToolDefinition): Promise<McpCallResult> {
    const { signal } = options;
    const request = { name, arguments: args as Record<string, unknown>, ...(options.trace ? { _meta: { ...options.trace } } : {}) };
    // The pinned definition without its outputSchema: the client then checks no output (we do, against the pinned one).
    const { outputSchema: _, ...pinned } = definition;
    const send = async (client: Client, reply?: InputReply) =>
      (await client.callTool(reply ? { ...request, ...reply } : request, {
        signal,
        timeout: options.timeoutMs + CLIENT_TIMEOUT_GRACE_MS,
        onprogress: options.onprogress,
        toolDefinition: pinned as never,
        // The server's questions come back to us (MRTR, 2026-07-28): a person answers them, not the client.
        allowInputRequired: true,
      })) as McpCallResult;
    const client = this.#client;
    try {
      return await this.#rounds(client, name, send, options);
    } catch (error) {
      if (signal.aborted) throw error;
      if (!isSessionExpired(this.mcp, error)) throw this.#failure(name, error);
    }
    // The server forgot the session (it expired, or the server restarted): one new session, one more try,
    // unless the new session lists another definition of this tool (it is withdrawn by then).
    try {
      const fresh = await this.#reconnect(client);
      if (!options.pinned())
        throw new McpError('tool_changed', `Tool "${name}" changed on the MCP server while reconnecting; it is withdrawn until the connection is refreshed`);
      return await this.#rounds(fresh, name, send, options);
    } catch (error) {
      if (signal.aborted || error instanceof McpError) throw error;
      throw this.#failure(name, error);
    }
  }

  /**
   * The call sent, its server's questions answered by the person and the call sent again with the
   * answers (at most MAX_INPUT_ROUNDS times: `askInput` ends it past that), then its result
   * followed where it is a task. A resumed call starts where it stood: its task followed, or its
   * question asked again.
   */
  async #rounds(
    client: Client,
    name: string,
    send: (client: Client, reply?: InputReply) => Promise<McpCallResult>,
    options: McpCallOptions,
  ): Promise<McpCallResult> {
    const from = options.resumeFrom;
    if (from && 'task' in from) return this.#followed(client, name, { content: [], _meta: { [TASK_META]: from.task } } as McpCallResult, options);
    const ask = (round: InputRound) => {
      if (!options.askInput) throw new McpError('mcp_input_unsupported', `Tool "${name}": the server asked for input, which this call cannot ask a person for`);
      return options.askInput(round);
    };
    let result = from ? await send(client, await ask(from.question)) : await send(client);
    for (let round = (from?.question.round ?? 0) + 1; isInputRequired(result); round++) {
      result = await send(client, await ask({ inputRequests: result.inputRequests, ...requestStateOf(result), round }));
    }
    return this.#followed(client, name, result, options);
  }

  /** The call's result: itself, or, where the server answered with a task, the task's (followed to its end). */
  async #followed(client: Client, name: string, result: McpCallResult, options: McpCallOptions): Promise<McpCallResult> {
    const task = (result as { _meta?: Record<string, unknown> })._meta?.[TASK_META] as McpTask | undefined;
    if (task === undefined) return result;
    options.onTask?.(task.taskId);
    const follow = {
      signal: options.signal,
      requestTimeoutMs: options.timeoutMs + CLIENT_TIMEOUT_GRACE_MS,
      onprogress: options.onprogress,
      hide: (text: string) => this.hide(text),
    };
    return followTask(client, name, task, follow);
  }

  /** A failed call's error: the login's (`mcp_auth_*`) where it is one, else as `callFailure` says. */
  #failure(name: string, error: unknown): Error {
    // Already this SDK's own (a task's failure, a login to give): as it is.
    if (isAmbiError(error)) return error;
    const login = this.#auth && loginFailure(this.#auth, this.config.url, error, (text) => this.hide(text));
    return login ?? callFailure(this.mcp, name, error, (text) => this.hide(text));
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
        const deadline = new ConnectDeadline(this.config.url, this.config.timeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
        deadline.start();
        const client = await connectClient(this.mcp, this.config, this.#secrets, deadline, (tools) => this.onToolsListed(tools), this.#auth)
          .catch((error: unknown) => {
            // A login to give (or a failed one) stays what it is: the person can act on it.
            if (error instanceof McpError && error.code.startsWith('mcp_auth_')) throw error;
            throw new McpError('mcp_unavailable', `The MCP session expired and reconnecting failed: ${errorMessage(error)}`);
          })
          .finally(() => deadline.dispose());
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
