/*
 * What of a server's config may be a credential, kept out of every message an MCP failure
 * carries (errors reach run events, logs, the page and, for a failed call, the model): the
 * URL's user-info and query values, as the OpenAI-compatible engine treats its base URL, and
 * every header value. Whoever quotes them is covered: Node's Headers check quotes a refused
 * value whole, and a server may echo the request's URL or Authorization header in its error.
 */
import { redactSecrets, urlSecrets } from '../engines/url-secrets.js';
import type { McpServerConfig } from './config.js';

/** Shorter values are not searched for: they could be a word of any message (and no credential is that short). */
const MIN_SECRET = 6;
/** An authentication scheme (`Bearer`, `Basic`, `Token`) before the credential: a word, not a secret. */
const SCHEME = /^[A-Za-z][A-Za-z-]*$/;

/** The config's values that may be credentials, longest first (so a longer one is replaced before a piece of it). */
export function configSecrets(config: Pick<McpServerConfig, 'url' | 'headers'>): string[] {
  const values = urlSecrets(config.url);
  for (const value of Object.values(config.headers ?? {})) {
    if (typeof value !== 'string') continue;
    values.push(value, value.trim());
    const pieces = value.trim().split(/\s+/);
    for (const [at, piece] of pieces.entries()) if (!(at === 0 && pieces.length > 1 && SCHEME.test(piece))) values.push(piece);
  }
  return [...new Set(values.filter((value) => value.length >= MIN_SECRET))].sort((a, b) => b.length - a.length);
}

/** `text` with every URL in it shown without user-info and query values, and each of `secrets` replaced by `***`. */
export function hideSecrets(text: string, secrets: readonly string[]): string {
  return redactSecrets(text, secrets);
}
