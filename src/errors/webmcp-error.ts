import { AmbiError } from './ambi-error.js';
import type { WebMcpErrorCode } from '../core/codes.js';

export type { WebMcpErrorCode };

/** A WebMCP operation (`offerWebMcpTools`, `listWebMcpTools`) could not be done. */
export class WebMcpError extends AmbiError {
  override name = 'WebMcpError';
  constructor(
    override readonly code: WebMcpErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
