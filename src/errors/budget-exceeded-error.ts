import type { ToolResult } from '../core/types.js';
import { AmbiError } from './ambi-error.js';

/**
 * A run's tokens (its leaves' and extra requests' included) passed its `maxTokens`: no further
 * model request was made. As for `max_iterations`, results already produced stay in the
 * conversation (rolled back only if no call of the run may have had an effect).
 */
export class BudgetExceededError extends AmbiError {
  override name = 'BudgetExceededError';
  constructor(
    readonly maxTokens: number,
    /** Tokens the run had used when it stopped. */
    readonly usedTokens: number,
    /** Every call of the run that ran (or was answered without running), in call order. */
    readonly toolResults: readonly ToolResult[] = [],
  ) {
    super('budget_exceeded', `The run used ${usedTokens} tokens, past its budget of ${maxTokens} (maxTokens): no further model request was made`);
  }
}
