import { AmbiError } from './ambi-error.js';

/** A tool definition is unusable: bad name, bad schema or bad policy. Thrown at registration (a call's result if only ajv's compile, when first needed, finds it). */
export class InvalidToolError extends AmbiError {
  constructor(
    readonly toolName: string,
    detail: string,
  ) {
    super('invalid_tool', `Tool "${toolName}": ${detail}`);
  }
}
