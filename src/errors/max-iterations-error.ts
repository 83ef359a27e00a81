import { AmbiError } from './ambi-error.js';

/** A run's last allowed model turn still asked for tools; the conversation was rolled back. */
export class MaxIterationsError extends AmbiError {
  constructor(readonly maxIterations: number) {
    super('max_iterations', `The model still asked for tools after ${maxIterations} turns (maxIterations)`);
  }
}
