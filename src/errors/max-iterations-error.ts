import type { ToolResult } from '../core/types.js';
import { AmbiError } from './ambi-error.js';

/**
 * A run's last allowed model turn still asked for tools; those calls were not run. The
 * conversation was rolled back unless a non-idempotent call of the run ran: then it keeps
 * the run, with a note that the run stopped at the limit.
 */
export class MaxIterationsError extends AmbiError {
  override name = 'MaxIterationsError';
  constructor(
    readonly maxIterations: number,
    /** Every call of the run that ran (or was answered without running), in call order. */
    readonly toolResults: readonly ToolResult[] = [],
  ) {
    super('max_iterations', `The model still asked for tools after ${maxIterations} turns (maxIterations)`);
  }
}
