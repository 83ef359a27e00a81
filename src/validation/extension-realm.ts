/**
 * Whether this realm belongs to a browser extension: an extension page or a worker it started
 * (`chrome-extension:` and its kin), or a content script (`chrome.runtime.id` is set). Manifest V3
 * refuses eval in all of them, so `auto` validation never tries it there: no CSP violation, and
 * no option to remember.
 */
export function inExtensionRealm(): boolean {
  const protocol = (globalThis as { location?: { protocol?: unknown } }).location?.protocol;
  if (protocol === 'chrome-extension:' || protocol === 'moz-extension:' || protocol === 'safari-web-extension:') return true;
  const runtime = (globalThis as { chrome?: { runtime?: { id?: unknown } } }).chrome?.runtime;
  return typeof runtime?.id === 'string';
}
