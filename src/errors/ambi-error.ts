/** Marker that survives bundling twice and structured cloning (via `code`). */
const MARKER = Symbol.for('ambi-web.error');

/** Base class of every ambi-web error: a stable `code` a caller can branch on. */
export class AmbiError extends Error {
  readonly [MARKER] = true;
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** True for an ambi-web error, also one from another bundle copy; narrows by `code` if given. */
export function isAmbiError(value: unknown, code?: string): value is AmbiError {
  if (typeof value !== 'object' || value === null) return false;
  const marked = (value as Record<symbol, unknown>)[MARKER] === true;
  return marked && (code === undefined || (value as AmbiError).code === code);
}
