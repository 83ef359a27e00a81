import { AmbiError } from './ambi-error.js';

/** Codes an MCP failure carries. */
export type McpErrorCode =
  /** Connecting, initialising or listing the tools failed (the message names the URL without credentials). */
  | 'mcp_connect_failed'
  /** The server went away: a call could not reach it, or it stopped answering mid-call. */
  | 'mcp_unavailable'
  /** The server changed this tool's definition after connection: withdrawn until `connection.refresh()`. */
  | 'tool_changed'
  /** The tool's `structuredContent` does not match its `outputSchema`. */
  | 'invalid_output'
  /** `mcpServer(...)` was given something unusable. */
  | 'invalid_mcp_config'
  /** `@modelcontextprotocol/client` (an optional peer dependency) could not be imported. */
  | 'mcp_client_missing';

/** An MCP server could not be used as a source of tools: the `code` says why (see `McpErrorCode`). */
export class McpError extends AmbiError {
  constructor(code: McpErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
