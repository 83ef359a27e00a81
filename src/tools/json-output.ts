import { AmbiError } from '../errors/ambi-error.js';
import { setOwn } from '../validation/own-properties.js';
import type { JsonValue } from '../core/types.js';

/** Why an output cannot reach the model as JSON, and where in it. */
export class NotJsonError extends Error {}

/**
 * The JSON value the model will read for a tool's output, built the way
 * `JSON.stringify` would (toJSON honoured, boxed primitives unboxed, undefined object
 * fields dropped, an own "__proto__" key kept as a key), except that what JSON would
 * silently mangle or refuse (a function, a symbol, a BigInt, a cycle, a Map or Set, a
 * non-finite number) throws a NotJsonError naming its path.
 */
export function toJsonOutput(value: unknown): JsonValue {
  return convert(value === undefined ? null : value, undefined);
}

/** Tool `toolName`'s output as the model reads it; one JSON cannot hold is the tool's failure, code `crashed`. */
export function toolOutputJson(toolName: string, output: unknown): JsonValue {
  try {
    return toJsonOutput(output);
  } catch (error) {
    if (!(error instanceof NotJsonError)) throw error;
    throw new AmbiError('crashed', `Tool "${toolName}" returned an output that is not JSON: ${error.message}`);
  }
}

/** Where the conversion is: the objects it is inside (a cycle returns to one) and the keys that lead to the value. */
interface Walk {
  inside: Set<object>;
  keys: Array<string | number>;
}

// `walk` is made at the first object: most outputs are a primitive. The path is spelt out only for an error.
function convert(value: unknown, walk: Walk | undefined): JsonValue {
  // As JSON.stringify does: toJSON first (an object's or a BigInt's), then a boxed primitive unboxed.
  if ((value !== null && typeof value === 'object') || typeof value === 'bigint') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    // The property key, an array index as a string, '' for the output itself.
    const key = walk?.keys.at(-1);
    if (typeof toJSON === 'function') value = toJSON.call(value, key === undefined ? '' : String(key));
    if (value !== null && typeof value === 'object') value = unboxed(value);
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new NotJsonError(`${where(walk)} is ${value}, which JSON cannot hold`);
      return value;
    case 'bigint':
      throw new NotJsonError(`${where(walk)} is a BigInt; return it as a string or number`);
    case 'function':
      throw new NotJsonError(`${where(walk)} is a function`);
    case 'symbol':
      throw new NotJsonError(`${where(walk)} is a symbol`);
    case 'undefined':
      return null; // as JSON.stringify does inside arrays
  }
  if (value === null) return null;
  const object = value as object;
  if (object instanceof Map || object instanceof Set) {
    throw new NotJsonError(`${where(walk)} is a ${object.constructor.name}; convert it to an array or object`);
  }
  const here = walk ?? { inside: new Set<object>(), keys: [] };
  if (here.inside.has(object)) throw new NotJsonError(`${where(here)} refers back to itself (a cycle)`);
  here.inside.add(object);
  // No cleanup on a throw: it ends the whole conversion.
  let out: JsonValue;
  if (Array.isArray(object)) out = object.map((item, i) => child(item, i, here));
  else {
    const fields: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(object)) {
      if (item === undefined) continue; // as JSON.stringify does in objects
      setOwn(fields, key, child(item, key, here));
    }
    out = fields;
  }
  here.inside.delete(object);
  return out;
}

/**
 * A boxed primitive's value, read as JSON.stringify reads it (a number or string through
 * its own valueOf / toString, which may be overridden); any other object as it is. Only
 * an object whose prototype is not a plain one's is looked at: the internal slot is what
 * counts, so each kind is asked for it (a subclass or another realm's box has it too).
 */
function unboxed(object: object): unknown {
  const prototype = Object.getPrototypeOf(object) as unknown;
  if (prototype === Object.prototype || prototype === null || Array.isArray(object)) return object;
  if (holds(Number.prototype.valueOf, object)) return Number(object);
  if (holds(String.prototype.valueOf, object)) return String(object);
  if (holds(Boolean.prototype.valueOf, object)) return Boolean.prototype.valueOf.call(object);
  if (holds(BigInt.prototype.valueOf, object)) return BigInt.prototype.valueOf.call(object);
  return object;
}

/** Whether `object` has the internal slot that `valueOf` reads (it throws a TypeError otherwise). */
function holds(read: (this: unknown) => unknown, object: object): boolean {
  try {
    read.call(object);
    return true;
  } catch {
    return false;
  }
}

function child(value: unknown, key: string | number, walk: Walk): JsonValue {
  walk.keys.push(key);
  const out = convert(value, walk);
  walk.keys.pop();
  return out;
}

/** The value's path in an error message: `/list/0/name`, or `the output` for the output itself. */
function where(walk: Walk | undefined): string {
  return walk && walk.keys.length > 0 ? `/${walk.keys.join('/')}` : 'the output';
}
