// What a secret must never be in: every text an error carries. The hostile tests that check a key,
// a token or a URL's user-info never leaks read it from here, so none of them looks at less.

/**
 * Every text an error carries: its message and stack, and those of its causes and of an
 * AggregateError's errors (each once, so a cause that loops ends); a cause that is data, as JSON.
 */
export function everyText(error: unknown, seen = new Set<unknown>()): string {
  if (error === undefined || error === null || seen.has(error)) return '';
  seen.add(error);
  if (!(error instanceof Error)) return typeof error === 'string' ? error : (JSON.stringify(error) ?? '');
  const nested = error instanceof AggregateError ? error.errors.map((e) => everyText(e, seen)).join('\n') : '';
  return [error.message, error.stack ?? '', everyText(error.cause, seen), nested].join('\n');
}
