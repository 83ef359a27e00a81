import { InvalidOptionError } from '../errors/invalid-option-error.js';

/** What an agent (or a runner worker) is told of parts, as given. */
export interface ContentOptions {
  maxPartBytes?: unknown;
  maxConversationBytes?: unknown;
  describeImage?: unknown;
}

/** Refuse (`invalid_option`) caps that are not whole numbers >= 1, and a `describeImage` that is not a function. */
export function checkContentOptions(options: ContentOptions): void {
  for (const name of ['maxPartBytes', 'maxConversationBytes'] as const) {
    const value = options[name];
    if (value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1)) continue;
    throw new InvalidOptionError(name, `must be a whole number of bytes >= 1 (got ${typeof value === 'number' ? value : `a ${typeof value}`})`);
  }
  if (options.describeImage !== undefined && typeof options.describeImage !== 'function')
    throw new InvalidOptionError('describeImage', 'must be a function of an image that gives its description');
}
