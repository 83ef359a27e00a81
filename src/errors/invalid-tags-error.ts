import { AmbiError } from './ambi-error.js';

/** The tags given to a TagToolCallParser cannot delimit calls. Thrown at construction. */
export class InvalidTagsError extends AmbiError {
  override name = 'InvalidTagsError';
  constructor(detail: string) {
    super('invalid_tags', `Invalid tool-call tags: ${detail}`);
  }
}
