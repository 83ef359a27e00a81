import { McpError } from '../errors/mcp-error.js';
import { ToolError } from '../errors/tool-error.js';
import type { McpClientModule } from './load-client.js';
import { STREAM_LOST_CODE } from './stream-guard.js';

/** Whether `error` says the server no longer knows our session (HTTP 404, as the spec has it): reconnect once. */
export function isSessionExpired(mcp: McpClientModule, error: unknown): boolean {
  return error instanceof mcp.SdkHttpError && error.status === 404;
}

/**
 * What a failed `tools/call` becomes: the server's own JSON-RPC error is the tool's failure
 * (`tool_error`, which the model reads); a server gone away is `mcp_unavailable`.
 * `hide` takes the URL's credentials out of any text that may repeat it.
 */
export function callFailure(mcp: McpClientModule, toolName: string, error: unknown, hide: (text: string) => string): Error {
  const detail = hide(error instanceof Error ? error.message : String(error));
  if (error instanceof mcp.ProtocolError && error.code !== STREAM_LOST_CODE) return new ToolError(`Tool "${toolName}" failed on the server: ${detail}`);
  if (error instanceof mcp.SdkError && error.code === mcp.SdkErrorCode.InvalidResult) {
    return new McpError('invalid_output', `Tool "${toolName}" answered with a malformed result: ${detail}`);
  }
  return new McpError('mcp_unavailable', `Tool "${toolName}": the MCP server is unavailable (${detail})`);
}
