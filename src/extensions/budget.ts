import { BudgetExceededError } from '../errors/budget-exceeded-error.js';
import type { RunExtension } from '../runner/extension.js';
import { stopAtLimit } from '../runner/iteration-limit.js';
import type { RunSetup } from '../runner/run-setup.js';

/**
 * A token budget (`RunOptions.maxTokens`, the run's, or its parent's for a leaf): once the tokens
 * the run and its leaves used pass it, no further model request is made. The run fails with
 * `budget_exceeded`; its conversation is left as at `max_iterations` (kept up to its last results,
 * with a note, where a call may have had effects; else rolled back).
 */
export function budgetExtension(setup: RunSetup): RunExtension {
  const { agent, usage, view } = setup;
  const conversation = setup.options.conversation;
  return {
    name: 'budget',
    async beforeTurn() {
      const used = usage.exceeded();
      if (used === undefined) return;
      const maxTokens = usage.maxTokens!;
      if (conversation !== undefined) await stopAtLimit({ conversation, agent, maxTokens }, view.toolResults, view.startLength);
      throw new BudgetExceededError(maxTokens, used, [...view.toolResults]);
    },
  };
}
