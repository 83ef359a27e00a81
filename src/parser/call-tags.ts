import { InvalidTagsError } from '../errors/invalid-tags-error.js';
import type { CallTags } from '../core/types.js';

/** The tags of the default TagToolCallParser, and of a request that names none. */
export const DEFAULT_CALL_TAGS: CallTags = Object.freeze({ open: '[TOOL_CALL]', close: '[/TOOL_CALL]' });

/** Throw InvalidTagsError unless `open` and `close` can delimit calls: the one check for parsers and grammars alike. */
export function checkTags(open: unknown, close: unknown): void {
  for (const [which, tag] of [
    ['open', open],
    ['close', close],
  ] as const) {
    if (typeof tag !== 'string' || tag.trim() === '') {
      throw new InvalidTagsError(`the ${which} tag must be a non-blank string, got ${JSON.stringify(tag)}`);
    }
  }
  if (open === close) {
    throw new InvalidTagsError(`the open and close tags must differ (both are ${JSON.stringify(open)}), or a block could never be told from its end`);
  }
  // The close tag is only searched outside JSON strings; a quote in it would itself open or end a string.
  if ((close as string).includes('"')) {
    throw new InvalidTagsError(`the close tag must not contain a double quote, got ${JSON.stringify(close)}`);
  }
}
