import { AmbiError } from './ambi-error.js';

/** Why a WebMCP operation failed; `duplicate_tool` and `aborted` mean what they mean elsewhere. */
export type WebMcpErrorCode = 'webmcp_unavailable' | 'webmcp_timeout' | 'webmcp_refused' | 'duplicate_tool' | 'aborted';

/** A WebMCP operation (`offerWebMcpTools`, `listWebMcpTools`) could not be done. */
export class WebMcpError extends AmbiError {
  constructor(
    override readonly code: WebMcpErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
