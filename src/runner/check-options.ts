import { InvalidOptionError } from '../errors/invalid-option-error.js';

/** Throw InvalidOptionError unless `value` (option `option`) is a whole number >= 1; undefined (the default) passes. */
export function checkCount(option: string, value: unknown): void {
  if (value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 1)) return;
  throw new InvalidOptionError(option, `must be a whole number >= 1 (got ${typeof value === 'number' ? value : `a ${typeof value}`})`);
}

/** Throw InvalidOptionError unless `value` (option `option`) is a whole number >= 0; undefined (the default) passes. */
export function checkCountFromZero(option: string, value: unknown): void {
  if (value === undefined || (typeof value === 'number' && Number.isInteger(value) && value >= 0)) return;
  throw new InvalidOptionError(option, `must be a whole number >= 0 (got ${typeof value === 'number' ? value : `a ${typeof value}`})`);
}

/** The options of a run that are checked where the run is started, in-process or on the page. */
export interface CheckedRunOptions {
  maxIterations?: number | undefined;
  maxCallsPerReply?: number | undefined;
  maxOutputRetries?: number | undefined;
  conversation?: string | undefined;
}

/** Refuse a run's options before it takes a lock or a slot: counts >= 1, and a conversation id that names something. */
export function checkRunOptions(options: CheckedRunOptions): void {
  checkCount('maxIterations', options.maxIterations);
  checkCount('maxCallsPerReply', options.maxCallsPerReply);
  checkCountFromZero('maxOutputRetries', options.maxOutputRetries);
  const { conversation } = options;
  // '' would take a lock and store nothing under a name nobody can ask for again.
  if (conversation === undefined || (typeof conversation === 'string' && conversation !== '')) return;
  throw new InvalidOptionError(
    'conversation',
    `must be a non-empty string (got ${typeof conversation === 'string' ? 'an empty one' : `a ${typeof conversation}`})`,
  );
}

/** Refuse a conversation id that a resume or its pending approvals cannot name: one is required there. */
export function checkResumed(conversation: unknown): void {
  if (typeof conversation === 'string' && conversation !== '') return;
  throw new InvalidOptionError(
    'conversation',
    `a resume needs a non-empty conversation id (got ${typeof conversation === 'string' ? 'an empty one' : `a ${typeof conversation}`})`,
  );
}
