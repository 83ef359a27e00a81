import { AmbiError } from './ambi-error.js';

/** A run was stopped with `run.suspend()`: what waited for approval still waits; resume it with `resume(conversation)`. */
export class RunSuspendedError extends AmbiError {
  override name = 'RunSuspendedError';
  constructor() {
    super('suspended', 'The run was suspended: resume its conversation to continue it');
  }
}
