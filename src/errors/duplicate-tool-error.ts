import { AmbiError } from './ambi-error.js';

/** A tool was registered under a name that is already taken. */
export class DuplicateToolError extends AmbiError {
  override name = 'DuplicateToolError';
  constructor(readonly toolName: string) {
    super('duplicate_tool', `A tool named "${toolName}" is already registered`);
  }
}
