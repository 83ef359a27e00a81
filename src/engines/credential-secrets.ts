/*
 * What of a config that talks to a server may be a credential, kept out of every message made of
 * what that server says: the URL's user-info and query values, the key (`apiKey`) and every
 * header value. A server may echo the request's Authorization header or a gateway key in its
 * error body, and an HTTP client quotes a header value it refuses whole. Used by the
 * OpenAI-compatible engine and by MCP connections alike.
 */
import { urlSecrets } from './url-secrets.js';

/** Shorter values are not searched for: they could be a word of any message (and no credential is that short). */
const MIN_SECRET = 6;
/** An authentication scheme (`Bearer`, `Basic`, `Token`) before the credential: a word, not a secret. */
const SCHEME = /^[A-Za-z][A-Za-z-]*$/;
/** What separates the words of a header value: whitespace and control characters (a client may quote a refused one as another). */
const SEPARATOR = /[\s\p{Cc}]+/u;

/** The config's values that may be credentials, longest first (so a longer one is replaced before a piece of it). */
export function credentialSecrets(config: { url: string; apiKey?: string | undefined; headers?: Record<string, string> | undefined }): string[] {
  const values = urlSecrets(config.url);
  const given = [config.apiKey, ...Object.values(config.headers ?? {})];
  for (const value of given) {
    if (typeof value !== 'string') continue;
    values.push(value, value.trim());
    const pieces = value.split(SEPARATOR).filter((piece) => piece !== '');
    for (const [at, piece] of pieces.entries()) if (!(at === 0 && pieces.length > 1 && SCHEME.test(piece))) values.push(piece);
  }
  return [...new Set(values.filter((value) => value.length >= MIN_SECRET))].sort((a, b) => b.length - a.length);
}
