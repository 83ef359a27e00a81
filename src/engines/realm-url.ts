/**
 * URLs resolved the way this realm's fetch resolves them: against the page's or the worker's
 * own location. Node has no location, so there only absolute URLs resolve.
 */

/** `url` as an absolute URL, or undefined when it is relative with no location to resolve it against. */
export function resolveURL(url: string): URL | undefined {
  const base = (globalThis as { location?: { href: string } }).location?.href;
  try {
    return new URL(url, base);
  } catch {
    return undefined;
  }
}
