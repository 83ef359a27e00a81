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
  return convert(value === undefined ? null : value, '', undefined);
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

// `ancestors` is made at the first object: most outputs are a primitive.
function convert(value: unknown, path: string, ancestors: Set<object> | undefined): JsonValue {
  const at = path === '' ? 'the output' : path;
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(key: string): unknown }).toJSON(path.split('/').pop() ?? '');
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new NotJsonError(`${at} is ${value}, which JSON cannot hold`);
      return value;
    case 'bigint':
      throw new NotJsonError(`${at} is a BigInt; return it as a string or number`);
    case 'function':
      throw new NotJsonError(`${at} is a function`);
    case 'symbol':
      throw new NotJsonError(`${at} is a symbol`);
    case 'undefined':
      return null; // as JSON.stringify does inside arrays
  }
  if (value === null) return null;
  const object = value as object;
  if (object instanceof Map || object instanceof Set) {
    throw new NotJsonError(`${at} is a ${object.constructor.name}; convert it to an array or object`);
  }
  const seen = ancestors ?? new Set<object>();
  if (seen.has(object)) throw new NotJsonError(`${at} refers back to itself (a cycle)`);
  seen.add(object);
  try {
    if (Array.isArray(object)) return object.map((item, i) => convert(item, `${path}/${i}`, seen));
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of Object.entries(object)) {
      if (item === undefined) continue; // as JSON.stringify does in objects
      out[key] = convert(item, `${path}/${key}`, seen);
    }
    return out;
  } finally {
    seen.delete(object);
  }
}
