import { AmbiError } from '../errors/ambi-error.js';
import type { JsonValue } from './types.js';

/** Why an output cannot reach the model as JSON, and where in it. */
export class NotJsonError extends Error {}

/**
 * The JSON value the model will read for a tool's output, built the way
 * `JSON.stringify` would (toJSON honoured, undefined object fields dropped), except
 * that what JSON would silently mangle or refuse (a function, a symbol, a BigInt, a
 * cycle, a Map or Set, a non-finite number) throws a NotJsonError naming its path.
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
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    // As JSON.stringify does: the property key, an array index as a string, '' for the output itself.
    const key = walk?.keys.at(-1);
    value = (value as { toJSON(key: string): unknown }).toJSON(key === undefined ? '' : String(key));
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
      fields[key] = child(item, key, here);
    }
    out = fields;
  }
  here.inside.delete(object);
  return out;
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
