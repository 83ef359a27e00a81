/** A server URL as messages may show it: no user-info, no query, no fragment (any of them may hold a credential). */
export function displayUrl(url: string | URL): string {
  try {
    const { protocol, host, pathname } = new URL(url);
    return `${protocol}//${host}${pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}
