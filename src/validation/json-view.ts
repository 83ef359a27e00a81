import { setOwn } from './own-properties.js';

/**
 * The data as `@cfworker/json-schema` must see it: JSON only. An `undefined` property is
 * absent (as ajv treats it), an `undefined` item is null, an own "__proto__" key stays a
 * key; a BigInt, symbol or function throws.
 */
export function jsonView(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : jsonView(item)));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) setOwn(out, key, jsonView(item));
    return out;
  }
  if (typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function') throw new TypeError('not JSON');
  return value;
}
