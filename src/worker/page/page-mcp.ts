import type * as Comlink from 'comlink';
import { AmbiError } from '../../errors/ambi-error.js';
import type { McpServerConfig } from '../../mcp/config.js';
import type { McpConnection } from '../../mcp/connection.js';
import type { RunnerWorkerApi } from '../wire/protocol.js';

/** What a connection needs of its WorkerRunner: its set-up, its guard against a dead worker, its API and its tool names. */
export interface PageMcpContext {
  sync(): Promise<void>;
  guard<T>(call: Promise<T>): Promise<T>;
  api: Comlink.Remote<RunnerWorkerApi>;
  names: Set<string>;
}

/**
 * `WorkerRunner.mcp`, loaded on its first use: the runner worker connects and registers the
 * server's tools; the page keeps their names (taken, refreshed, released on close).
 */
export async function connectFromPage(config: McpServerConfig, runner: PageMcpContext): Promise<McpConnection> {
  // Checked in the runner worker (connectMcp), whose coded error crosses back: the page carries none of MCP's code.
  await runner.sync();
  const info = await runner.guard(runner.api.mcpConnect(config)).catch((error: unknown) => {
    if (!(error instanceof DOMException && error.name === 'DataCloneError')) throw error;
    throw new AmbiError('invalid_mcp_config', `mcpServer: the config must be plain data (${error.message})`);
  });
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
