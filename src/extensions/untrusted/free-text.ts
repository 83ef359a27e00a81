/** Deeper schemas are taken to admit free text: the check never recurses without end. */
const MAX_DEPTH = 64;

const CLOSED_TYPES: ReadonlySet<unknown> = new Set(['boolean', 'number', 'integer', 'null']);

/**
 * Whether a quarantine's `output` schema admits free text: some value it admits holds a string
 * that is not one the schema itself lists (in `enum` or `const`), or an object key it does not
 * name. A schema that admits none (booleans, numbers, null, listed strings, objects with
 * `additionalProperties: false` and arrays made of those) leaves its answers no room for words
 * an attacker chose. Anything this check cannot prove closed counts as free text: a `$ref` it
 * cannot follow, a string with only a `pattern`, an object that allows other keys.
 */
export function admitsFreeText(schema: unknown): boolean {
  return !closed(schema, schema, 0, new Set());
}

/** Whether every value `schema` admits is free of free text. */
function closed(schema: unknown, root: unknown, depth: number, following: Set<string>): boolean {
  if (depth > MAX_DEPTH) return false;
  if (schema === false) return true; // admits nothing
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return false;
  const s = schema as Record<string, unknown>;
  const sub = (child: unknown) => closed(child, root, depth + 1, following);
  // Some validators ignore the keywords beside a `$ref`: then only its target can close the schema.
  if (s.$ref !== undefined) return typeof s.$ref === 'string' && closedRef(s.$ref, root, depth, following);
  // Each keyword below narrows what the schema admits: one that closes it is enough.
  if (Object.hasOwn(s, 'const') || Array.isArray(s.enum)) return true;
  if (Array.isArray(s.allOf) && s.allOf.some(sub)) return true;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = s[key];
    if (Array.isArray(branches) && branches.length > 0 && branches.every(sub)) return true;
  }
  const types = typeof s.type === 'string' ? [s.type] : Array.isArray(s.type) ? s.type : undefined;
  if (!types || types.length === 0) return false;
  return types.every((type) => {
    if (CLOSED_TYPES.has(type)) return true;
    if (type === 'object') return closedObject(s, sub);
    if (type === 'array') return closedArray(s, sub);
    return false;
  });
}

/** An object with only the keys it names (`additionalProperties: false`, no key patterns), each of a closed schema. */
function closedObject(s: Record<string, unknown>, sub: (child: unknown) => boolean): boolean {
  if (s.additionalProperties !== false) return false;
  const patterns = s.patternProperties;
  if (typeof patterns === 'object' && patterns !== null && Object.keys(patterns).length > 0) return false;
  const properties = s.properties;
  if (properties === undefined) return true;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return false;
  return Object.values(properties).every(sub);
}

/** An array whose items are all of closed schemas (`items`, or a tuple with nothing after it). */
function closedArray(s: Record<string, unknown>, sub: (child: unknown) => boolean): boolean {
  const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
  if (tuple) {
    const rest = Array.isArray(s.prefixItems) ? s.items : s.additionalItems;
    return tuple.every(sub) && (rest === false || (rest !== undefined && sub(rest)));
  }
  return s.items !== undefined && sub(s.items);
}

/** A local `$ref` (`#/definitions/x`, `#/$defs/x`) followed into the schema; one that loops, or goes elsewhere, is not closed. */
function closedRef(ref: string, root: unknown, depth: number, following: Set<string>): boolean {
  if (!ref.startsWith('#') || following.has(ref)) return false;
  let target: unknown = root;
  for (const token of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof target !== 'object' || target === null || !Object.hasOwn(target, key)) return false;
    target = (target as Record<string, unknown>)[key];
  }
  following.add(ref);
  try {
    return closed(target, root, depth + 1, following);
  } finally {
    following.delete(ref);
  }
}
