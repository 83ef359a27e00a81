/** How deeply a call's arguments may nest objects and arrays; the arguments object itself is the first level. */
export const MAX_ARGS_DEPTH = 64;

/** What the model reads for arguments nested deeper than that. */
export const TOO_DEEP = `arguments must NOT be nested more than ${MAX_ARGS_DEPTH} levels deep`;

/**
 * Whether `value` nests objects or arrays more than MAX_ARGS_DEPTH levels deep: validators
 * and copies recurse level by level, and a hostile model's 3 KB of `{"a":{"a":…}}` is
 * enough to overflow their stack. This walk stops at the limit, so it recurses at most
 * that deep itself, whatever the value (a cycle is too deep). Reads own enumerable
 * properties, as JSON does; a property that throws when read throws here.
 */
export function nestedTooDeep(value: unknown, depth = 1): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > MAX_ARGS_DEPTH) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (nestedTooDeep(value[i], depth + 1)) return true;
    return false;
  }
  for (const key of Object.keys(value)) if (nestedTooDeep((value as Record<string, unknown>)[key], depth + 1)) return true;
  return false;
}

/** What stands in a transcript for arguments nested too deep to keep; it decodes to `invalid_arguments`. */
export const DEEP_ARGS_NOTE = `[arguments not kept: ${TOO_DEEP}]`;

/**
 * `args`, or DEEP_ARGS_NOTE in their place when they nest too deep: a store's structured
 * clone and an engine's JSON.stringify recurse too, so such arguments could be neither
 * stored nor sent back to the model. The call is then refused like any whose arguments do
 * not parse, and the run goes on.
 */
export function keepableArgs(args: unknown): unknown {
  try {
    return nestedTooDeep(args) ? DEEP_ARGS_NOTE : args;
  } catch {
    return args; // a getter that throws: decoding reports it
  }
}
