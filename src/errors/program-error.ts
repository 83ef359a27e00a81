import type { ProgramErrorCode } from '../core/codes.js';
import { AmbiError } from './ambi-error.js';

/** A Code Mode program that did not return: timed out, threw, aborted, or found no sandbox to run in. */
export class ProgramError extends AmbiError {
  override name = 'ProgramError';
  constructor(
    override readonly code: ProgramErrorCode,
    message: string,
    /** The program's `console.log` lines up to its end (bounded as a result's are). */
    readonly logs: string[] = [],
    /** The program's line the error was thrown at, when known. */
    readonly line?: number,
  ) {
    super(code, message);
  }
}
