/** `JSON.parse(text)`, or `fallback` when `text` is not JSON. */
export function parseJsonOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}
