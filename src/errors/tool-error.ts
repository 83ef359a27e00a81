import { AmbiError } from './ambi-error.js';

/**
 * A business error thrown by a tool: never retried, and its message reaches the
 * model as written, so write it for the model to act on.
 */
export class ToolError extends AmbiError {
  override name = 'ToolError';
  constructor(message: string, options?: { cause?: unknown }) {
    super('tool_error', message, options);
  }
}
