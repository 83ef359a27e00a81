import { MAX_ARGS_DEPTH } from './args-depth.js';
import { setOwn } from './own-properties.js';

/**
 * A copy of a call's arguments, for validation to write defaults into. Plain JSON (which
 * arguments nearly always are) is copied here: structuredClone is a call into the
 * browser costing microseconds even for `{}`. Anything else (undefined, a Date, a cycle,
 * a depth past 64) goes to structuredClone, which also throws for what it cannot copy.
 * `json`: the copy is plain JSON, to be read as it is.
 */
export function copyArgs(value: unknown): { copy: unknown; json: boolean } {
  try {
    return { copy: copyPlain(value, 0), json: true };
  } catch (error) {
    if (error !== NOT_PLAIN) throw error;
  }
  return { copy: structuredClone(value), json: false };
}

const NOT_PLAIN = Symbol('not plain JSON');

function copyPlain(value: unknown, depth: number): unknown {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') throw NOT_PLAIN;
  if (typeof value !== 'object' || value === null) return value;
  if (depth === MAX_ARGS_DEPTH) throw NOT_PLAIN; // a call's arguments never get here (decode-args.ts)
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyPlain(value[i], depth + 1);
    return out;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) throw NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    // An own "__proto__" key (JSON.parse makes one) stays a key, not the copy's prototype.
    setOwn(out, key, copyPlain((value as Record<string, unknown>)[key], depth + 1));
  }
  return out;
}
