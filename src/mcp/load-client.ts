import { McpError } from '../errors/mcp-error.js';

/** The official MCP client module: an optional peer dependency, loaded on first use in the realm that runs the loop. */
export type McpClientModule = typeof import('@modelcontextprotocol/client');

let loading: Promise<McpClientModule> | undefined;

/** Import `@modelcontextprotocol/client` once; rejects with `mcp_client_missing` where it is not installed. */
export function loadMcpClient(): Promise<McpClientModule> {
  loading ??= import('@modelcontextprotocol/client').catch((error: unknown) => {
    loading = undefined;
    throw new McpError(
      'mcp_client_missing',
      `MCP needs the optional peer dependency @modelcontextprotocol/client (npm i @modelcontextprotocol/client): ${(error as Error)?.message ?? error}`,
    );
  });
  return loading;
}
