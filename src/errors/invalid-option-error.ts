import { AmbiError } from './ambi-error.js';

/** An option given to a run, a runner or `leaf()` is out of its range; refused before anything starts. */
export class InvalidOptionError extends AmbiError {
  override name = 'InvalidOptionError';
  constructor(
    readonly option: string,
    detail: string,
  ) {
    super('invalid_option', `Option "${option}": ${detail}`);
  }
}
