import { checkSchema } from '../../validation/check-schema.js';
import { FALSE_SCHEMA, isSchemaNode, type SchemaNode } from '../../validation/no-eval/schema-keywords.js';
import { SchemaRefs } from './schema-refs.js';

/** Deeper schemas are taken to admit free text: the check never recurses without end. */
const MAX_DEPTH = 64;

/**
 * The most items an array may hold and still count as closed. A longer (or unbounded) array of
 * closed items spells words item by item: character codes, one-letter enums.
 */
export const MAX_CLOSED_ITEMS = 8;

const CLOSED_TYPES: ReadonlySet<unknown> = new Set(['boolean', 'number', 'integer', 'null']);

/**
 * Whether a quarantine's `output` schema admits free text: some value it admits holds a string
 * that is not one the schema itself lists (in `enum` or `const`), an object key it does not name,
 * or an array long enough to spell words. A schema that admits none (booleans, numbers, null,
 * listed strings, objects with `additionalProperties: false`, and arrays of those with at most
 * MAX_CLOSED_ITEMS items) leaves its answers no room for words an attacker chose. Anything this
 * check cannot prove closed counts as free text: a schema the validators refuse, a `$ref` it cannot
 * resolve as they do (schema-refs.ts), a string with only a `pattern`, an object that allows other keys.
 */
export function admitsFreeText(schema: unknown): boolean {
  if (schema === false) return false;
  if (!isSchemaNode(schema)) return true;
  try {
    // The schema as the validators read it (booleans as schemas, `nullable` as a type), and its `$ref`s as they resolve them.
    const prepared = checkSchema(schema);
    const refs = new SchemaRefs(prepared);
    return !new Proof(refs).closed(prepared.root, 0);
  } catch {
    return true; // a schema no validator takes, or deeper than a walk can go
  }
}

/** A walk over one schema that proves, where it can, that a subschema admits no free text. */
class Proof {
  /** The `$ref`s being followed now: a loop is not closed. */
  readonly #following = new Set<SchemaNode>();

  constructor(readonly refs: SchemaRefs) {}

  /** Whether every value `schema` admits is free of free text. */
  closed(schema: unknown, depth: number): boolean {
    if (depth > MAX_DEPTH) return false;
    if (isFalse(schema)) return true; // admits nothing
    if (!isSchemaNode(schema)) return false;
    const s = schema;
    const sub = (child: unknown) => this.closed(child, depth + 1);
    // Some validators ignore the keywords beside a `$ref`: then only its target can close the schema.
    if (s.$ref !== undefined) return this.#closedRef(s, depth);
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

  /** A `$ref`'s target, resolved as the validators resolve it; one that cannot be, or that loops, is not closed. */
  #closedRef(node: SchemaNode, depth: number): boolean {
    const target = this.refs.target(node);
    if (target === undefined || this.#following.has(node)) return false;
    this.#following.add(node);
    try {
      return this.closed(target, depth + 1);
    } finally {
      this.#following.delete(node);
    }
  }
}

/** An object with only the keys it names (`additionalProperties: false`, no key patterns), each of a closed schema. */
function closedObject(s: SchemaNode, sub: (child: unknown) => boolean): boolean {
  if (!isFalse(s.additionalProperties)) return false;
  const patterns = s.patternProperties;
  if (isSchemaNode(patterns) && Object.keys(patterns).length > 0) return false;
  const properties = s.properties;
  if (properties === undefined) return true;
  if (!isSchemaNode(properties)) return false;
  return Object.values(properties).every(sub);
}

/**
 * An array of at most MAX_CLOSED_ITEMS items (by `maxItems`, or a tuple with nothing after it),
 * whose items are all of closed schemas (`items`, or the tuple's and what may follow them).
 */
function closedArray(s: SchemaNode, sub: (child: unknown) => boolean): boolean {
  const tuple = Array.isArray(s.items) ? s.items : undefined;
  const rest = tuple ? s.additionalItems : s.items;
  const ends = tuple !== undefined && isFalse(rest);
  const maxItems = Number.isSafeInteger(s.maxItems) ? (s.maxItems as number) : Number.POSITIVE_INFINITY;
  const longest = Math.min(maxItems, ends ? tuple.length : Number.POSITIVE_INFINITY);
  if (longest > MAX_CLOSED_ITEMS) return false;
  if (tuple && !tuple.every(sub)) return false;
  // Items after a tuple's: none may follow it, or `maxItems` leaves no room for any, or they are closed too.
  return ends || (tuple !== undefined && maxItems <= tuple.length) || (rest !== undefined && sub(rest));
}

/** `false`, as written or as the validators' prepared schema holds it. */
function isFalse(schema: unknown): boolean {
  return schema === false || (isSchemaNode(schema) && schema[FALSE_SCHEMA] === true);
}
