import type * as Comlink from 'comlink';
import { AmbiError } from '../../errors/ambi-error.js';
import type { McpServerConfig } from '../../mcp/config.js';
import type { McpConnectOptions, McpConnection } from '../../mcp/connection.js';
import { displayUrl } from '../../mcp/display-url.js';
import { onAbort } from '../../util/abort-source.js';
import type { RunnerWorkerApi } from '../wire/protocol.js';

/** What connecting through the runner worker needs of its WorkerRunner. */
export interface WorkerSide {
  api: Comlink.Remote<RunnerWorkerApi>;
  /** The names taken on the page (a connection's tools claim theirs). */
  names: Set<string>;
  /** The worker configured and its tools registered. */
  sync(): Promise<void>;
  /** A worker call that also rejects when the worker dies or the runner closes. */
  guard<T>(call: Promise<T>): Promise<T>;
}

/**
 * `runner.mcp(config)`: connect to an MCP server from the runner worker and register its tools
 * there (all or none; see `agent.mcp`). The MCP client loads in the worker, never on the page;
 * the server must allow the page's origin (CORS) and expose `mcp-session-id`.
 */
export async function connectInWorker(config: McpServerConfig, options: McpConnectOptions, runner: WorkerSide): Promise<McpConnection> {
  const { signal } = options;
  const aborted = () => new AmbiError('aborted', `Connecting to the MCP server at ${displayUrl(String(config?.url))} was aborted`, { cause: signal?.reason });
  if (signal?.aborted) throw aborted();
  // Checked in the runner worker (connectMcp), whose coded error crosses back: the page carries none of MCP's code.
  await runner.sync();
  if (signal?.aborted) throw aborted();
  const connecting = runner.guard(runner.api.mcpConnect(config)).catch((error: unknown) => {
    if (!(error instanceof DOMException && error.name === 'DataCloneError')) throw error;
    throw new AmbiError('invalid_mcp_config', `mcpServer: the config must be plain data (${error.message})`);
  });
  // A signal cannot cross to the worker, whose attempt the config's `timeoutMs` bounds: the page
  // stops waiting at once, and a connection the worker completes after that is closed there.
  const info = signal
    ? await new Promise<Awaited<typeof connecting>>((resolve, reject) => {
        const unhook = onAbort(signal, () => {
          reject(aborted());
          void connecting.then((late) => runner.guard(runner.api.mcpClose(late.id))).catch(() => {});
        });
        connecting.then(resolve, reject).finally(unhook);
      })
    : await connecting;
  let tools = info.tools;
  const claim = (names: string[]) => {
    for (const name of tools) runner.names.delete(name);
    tools = names;
    for (const name of tools) runner.names.add(name);
  };
  claim(tools);
  return {
    name: info.name,
    get tools() {
      return [...tools];
    },
    refresh: async () => claim(await runner.guard(runner.api.mcpRefresh(info.id))),
    close: async () => {
      await runner.guard(runner.api.mcpClose(info.id));
      claim([]);
    },
  };
}
