// The names this page offered through `offerWebMcpTools` and has not withdrawn: `getTools()`
// lists them too, and `listWebMcpTools` leaves them out (a page calling its own tools back
// through the browser would only add a hop).
const offered = new Set<string>();

/** Record names as offered by this page. */
export function markOffered(names: readonly string[]): void {
  for (const name of names) offered.add(name);
}

/** Forget names withdrawn from the browser. */
export function unmarkOffered(names: readonly string[]): void {
  for (const name of names) offered.delete(name);
}

/** Whether this page offered a tool of that name (registered in this window). */
export function isOffered(name: string): boolean {
  return offered.has(name);
}
