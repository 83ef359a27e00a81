import { AmbiError } from './ambi-error.js';
import type { McpErrorCode } from '../core/codes.js';

export type { McpErrorCode };

/** An MCP server could not be used as a source of tools: the `code` says why (see `McpErrorCode`). */
export class McpError extends AmbiError {
  override name = 'McpError';
  constructor(code: McpErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}
