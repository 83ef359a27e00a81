/**
 * Whether `value` is already the JSON value `toJsonOutput` would build from it: plain objects and
 * arrays, strings, finite numbers, booleans and null, no toJSON, no undefined, no cycle. Such an
 * output crosses to the runner worker as it is (cloned once, by `postMessage`) instead of being
 * copied first; anything else is converted as before. Read only: nothing is built.
 */
export function isPlainJson(value: unknown): boolean {
  return plain(value, []);
}

function plain(value: unknown, inside: object[]): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  const prototype = Object.getPrototypeOf(value) as unknown;
  const array = Array.isArray(value);
  if (!array && prototype !== Object.prototype && prototype !== null) return false;
  if ('toJSON' in value || inside.includes(value)) return false;
  inside.push(value);
  const items = array ? (value as unknown[]) : Object.values(value);
  // An array's holes read as undefined: not plain (JSON writes them as null).
  for (let i = 0; i < items.length; i++) if (!plain(items[i], inside)) return false;
  inside.pop();
  return true;
}
