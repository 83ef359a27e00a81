import { AmbiError } from './ambi-error.js';
import type { JournalState } from '../core/types.js';
import type { JournalErrorCode } from '../core/codes.js';

export type { JournalErrorCode };

/**
 * A tool-call journal refused a transition: `journal_conflict` when the key is already
 * recorded (begun twice, or finished twice), `journal_missing` when finishing a key never begun.
 */
export class JournalError extends AmbiError {
  override name = 'JournalError';
  constructor(
    code: JournalErrorCode,
    readonly idempotencyKey: string,
    /** The state already recorded for the key, when there is one. */
    readonly state?: JournalState,
  ) {
    super(code, describe(code, idempotencyKey, state));
  }
}

function describe(code: JournalErrorCode, key: string, state?: JournalState): string {
  return code === 'journal_missing'
    ? `No journal entry for idempotency key "${key}": it was never begun`
    : `The journal already holds idempotency key "${key}" (state: ${state}); a journalled call is never begun or finished twice`;
}
