/*
 * Keys put in a URL (`https://user:key@host`, `?api-key=…`, `?key=…`) stay out of error
 * messages: those reach run events, logs and the page's chat. What is shown is the URL with
 * its user-info dropped and each query value replaced by `***`. The redaction of whole errors
 * (and of the keys a server may echo) is url-secrets.ts, which only a failed request loads.
 */

/** What a redacted value shows. */
export const REDACTED = '***';

/** `user:pass@` after `//`, in any text: a URL's user-info. */
const USER_INFO = /\/\/[^\s/?#@"'<>\\]+@/g;
/** A query string, in any text: up to a space, quote, bracket, fragment or backslash; punctuation that ends a sentence is not its own. */
const QUERY = /\?[^\s"'<>#\\)]*[^\s"'<>#\\):.,;!?]/g;

/** `text` with every URL in it shown safely: user-info dropped, query values `***`. Also for text that does not parse as a URL. */
export function redactURL(text: string): string {
  return text.replace(USER_INFO, '//').replace(QUERY, redactQuery);
}

/** `?a=1&b` as `?a=***&***`. */
function redactQuery(query: string): string {
  const pieces = query
    .slice(1)
    .split('&')
    .map((piece) => {
      if (piece === '') return piece;
      const equals = piece.indexOf('=');
      return equals < 0 ? REDACTED : `${piece.slice(0, equals + 1)}${equals + 1 < piece.length ? REDACTED : ''}`;
    });
  return `?${pieces.join('&')}`;
}
