import type { AmbiErrorCode } from '../core/codes.js';

/** Marker that survives bundling twice and structured cloning (via `code`). */
const MARKER = Symbol.for('ambi-web.error');

/** Base class of every ambi-web error: a stable `code` a caller can branch on. */
export class AmbiError extends Error {
  readonly [MARKER] = true;
  // A fixed string, not the constructor's name: a minifier renames classes. Each subclass sets its own.
  override name = 'AmbiError';
  constructor(
    readonly code: AmbiErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * True for an ambi-web error, also one from another bundle copy or rebuilt after crossing a
 * worker; given a `code` (one of `AmbiErrorCode`, so a typo fails to compile), true only for
 * that code, and `error.code` narrows to it.
 */
export function isAmbiError<C extends AmbiErrorCode = AmbiErrorCode>(value: unknown, code?: C): value is AmbiError & { readonly code: C } {
  if (typeof value !== 'object' || value === null) return false;
  const marked = (value as Record<symbol, unknown>)[MARKER] === true;
  return marked && (code === undefined || (value as AmbiError).code === code);
}
