/** Whether two JSON values (what a store gives back) are equal: the same primitives, arrays and own keys, deeply. */
export function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && isDeepStrictEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
