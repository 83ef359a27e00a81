import type { ContentErrorCode } from '../core/codes.js';
import { AmbiError } from './ambi-error.js';

/** A part of a message (an image, a file) that cannot go where it was given; `part` names it (`part 2 (image/png, 48213 bytes)`). */
export class ContentError extends AmbiError {
  override name = 'ContentError';
  declare readonly code: ContentErrorCode;
  constructor(
    code: ContentErrorCode,
    readonly part: string,
    message: string,
  ) {
    super(code, message);
  }
}
