import { AmbiError } from './ambi-error.js';

/** A run's final answer did not parse or validate against its `output` schema, after every retry allowed. */
export class InvalidOutputError extends AmbiError {
  override name = 'InvalidOutputError';
  constructor(
    /** What was wrong with the last answer, one line per problem. */
    readonly problems: readonly string[],
    /** The last answer, as the model wrote it. */
    readonly text: string,
    /** Answers the model gave (1 + the retries it had). */
    readonly attempts: number,
  ) {
    super('invalid_output', `The answer does not match the output schema after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${problems.join('; ')}`);
  }
}
