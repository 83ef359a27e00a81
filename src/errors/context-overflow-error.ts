import { AmbiError } from './ambi-error.js';

/** Even what a request must keep (the system prompt, the run's user message, the latest step it answers) is over the context budget; the engine was not called. */
export class ContextOverflowError extends AmbiError {
  override name = 'ContextOverflowError';
  constructor(
    /** Tokens of what had to be kept. */
    readonly tokens: number,
    /** Tokens the prompt may take: the budget's `maxTokens` minus `reserveTokens`. */
    readonly limit: number,
  ) {
    super('context_overflow', `The conversation does not fit the context: what must be kept takes ${tokens} tokens, the budget allows ${limit}`);
  }
}
