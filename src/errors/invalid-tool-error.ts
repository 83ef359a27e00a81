import { AmbiError } from './ambi-error.js';

/** A tool definition is unusable: bad name, bad schema or bad policy. Thrown at registration. */
export class InvalidToolError extends AmbiError {
  override name = 'InvalidToolError';
  constructor(
    readonly toolName: string,
    detail: string,
  ) {
    super('invalid_tool', `Tool "${toolName}": ${detail}`);
  }
}
