/*
 * An error that leaves an engine, redacted: URLs in its message, stack and causes shown
 * safely (url-redact.ts), and each value of the engine's URL that may be a key replaced
 * wherever it appears (a server may echo a key).
 */
import { isAmbiError } from '../errors/ambi-error.js';
import { resolveURL } from './realm-url.js';
import { REDACTED, redactURL } from './url-redact.js';

/** A value of the URL this short is also searched for outside URLs only when it could be a key, not a word or a number. */
const MIN_SECRET = 6;
/** How deep into `cause` chains and data causes the redaction goes. */
const MAX_DEPTH = 8;

/** The values of `url` that may be keys (user name, password, query values), as written and decoded, longest first. */
export function urlSecrets(url: string): string[] {
  const parsed = resolveURL(url);
  if (!parsed) return [];
  const values = [parsed.username, parsed.password];
  for (const piece of parsed.search.slice(1).split('&')) values.push(piece.slice(piece.indexOf('=') + 1));
  const all = values.flatMap((value) => [value, decoded(value)]).filter((value) => value.length >= MIN_SECRET);
  return [...new Set(all)].sort((a, b) => b.length - a.length);
}

function decoded(value: string): string {
  try {
    return decodeURIComponent(value.replaceAll('+', ' '));
  } catch {
    return value;
  }
}

/** The mark a quote of a server's text ends with where it was cut short (see `preview`). */
const CUT = '…';
/** The shortest start of a secret taken out before a cut: fewer characters tell nothing of it. */
const MIN_CUT_PIECE = 4;

/**
 * `text` with the URLs in it redacted, and each of `secrets` replaced wherever it appears (a
 * server may echo a key), also where a quote was cut short inside one: its first characters
 * before the `…` go too.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let clean = redactURL(text);
  for (const secret of secrets) clean = clean.replaceAll(secret, REDACTED);
  if (!clean.includes(CUT)) return clean;
  for (const secret of secrets) {
    for (let length = secret.length - 1; length >= MIN_CUT_PIECE; length--) {
      const piece = `${secret.slice(0, length)}${CUT}`;
      if (clean.includes(piece)) clean = clean.replaceAll(piece, `${REDACTED}${CUT}`);
    }
  }
  return clean;
}

/**
 * `error` with its message, stack and causes (errors, or the server's data) redacted in place,
 * for an error that leaves the engine. The cause of an abort is the caller's own reason: left as is.
 */
export function withoutURLSecrets<T>(error: T, secrets: readonly string[]): T {
  redactValue(error, secrets, 0, new Set());
  return error;
}

function redactValue(value: unknown, secrets: readonly string[], depth: number, seen: Set<object>): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH || seen.has(value)) return value;
  seen.add(value);
  if (value instanceof Error) {
    setOwn(value, 'message', redactSecrets(value.message, secrets));
    if (typeof value.stack === 'string') setOwn(value, 'stack', redactSecrets(value.stack, secrets));
    if (!isAmbiError(value, 'aborted') && value.cause !== undefined) setOwn(value, 'cause', redactValue(value.cause, secrets, depth + 1, seen));
    if (value instanceof AggregateError) value.errors.forEach((inner) => redactValue(inner, secrets, depth + 1, seen));
    return value;
  }
  // Data (a server's error payload): strings redacted where they are.
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const before = record[key];
    const after = redactValue(before, secrets, depth + 1, seen);
    if (after !== before) setOwn(record, key, after);
  }
  return value;
}

/** Write an own property; one that cannot be written (a frozen object) is left as it is rather than thrown over. */
function setOwn(target: object, key: string, value: unknown): void {
  if ((target as Record<string, unknown>)[key] === value) return;
  // defineProperty, not assignment: a DOMException's message is a getter on its prototype.
  const own = Object.getOwnPropertyDescriptor(target, key);
  try {
    Object.defineProperty(target, key, { value, writable: true, configurable: true, enumerable: own?.enumerable ?? false });
  } catch {
    // Left unredacted only where it could not be changed at all.
  }
}
