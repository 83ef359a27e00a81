import { validate } from '@cfworker/json-schema';
import { resolveRef, type PreparedSchema } from './no-eval-schema.js';
import { ownValue, setOwn } from '../own-properties.js';
import { isSchemaNode, subschemas, usesGroup, type SchemaNode } from './schema-keywords.js';

/**
 * Whether validation may write a default into data this schema checks: a `default` anywhere
 * (even where ajv would ignore it), or a `$ref` out of the schema (say to the draft-07
 * meta-schema, which has defaults). Errs on the side of yes.
 */
export function mayFillDefaults(node: unknown, seen = new Set<object>()): boolean {
  if (typeof node !== 'object' || node === null || seen.has(node)) return false;
  seen.add(node);
  if (!Array.isArray(node)) {
    if (Object.hasOwn(node, 'default')) return true;
    const ref = (node as { $ref?: unknown }).$ref;
    if (ref !== undefined && !(typeof ref === 'string' && ref.startsWith('#'))) return true;
  }
  return Object.values(node).some((child) => mayFillDefaults(child, seen));
}

type Matchers = ReadonlyArray<readonly [pattern: RegExp, schema: unknown]>;

/** What filling a prepared schema's defaults needs, made once per schema. */
export interface DefaultsPlan {
  prepared: PreparedSchema;
  /** Each `patternProperties` the fill can reach, compiled. */
  patterns: Map<SchemaNode, Matchers>;
  /** Every default is plain JSON, so filling JSON data leaves it JSON. */
  json: boolean;
}

/**
 * The plan for filling defaults of `prepared` (made from `schema`, checked already), or
 * undefined when the schema can fill none. Walks what the fill can reach: the root and,
 * through `$ref`, the definitions it uses (an unused one may hold what ajv never compiles).
 */
export function planDefaults(schema: object, prepared: PreparedSchema): DefaultsPlan | undefined {
  if (!mayFillDefaults(schema)) return undefined;
  const plan: DefaultsPlan = { prepared, patterns: new Map(), json: true };
  const seen = new Set<SchemaNode>();
  const visit = (node: unknown): void => {
    if (!isSchemaNode(node) || seen.has(node)) return;
    seen.add(node);
    if (node.default !== undefined && !isPlainJson(node.default)) plan.json = false;
    if (isSchemaNode(node.patternProperties)) {
      plan.patterns.set(
        node,
        Object.entries(node.patternProperties).map(([pattern, sub]) => [new RegExp(pattern, 'u'), sub] as const),
      );
    }
    if (node.$ref !== undefined) visit(resolveRef(node, prepared.lookup));
    for (const [keyword, , sub] of subschemas(node)) if (keyword !== 'definitions' && keyword !== '$defs') visit(sub);
  };
  visit(prepared.root);
  return plan;
}

/**
 * Fill `default`s into `data` where ajv's `useDefaults` would: a missing property of an
 * object (a missing item of a tuple) whose schema has a default, through `$ref`, `allOf`,
 * `then`/`else`, `properties`, `patternProperties`, `additionalProperties`, schema
 * `dependencies` and `items`; never inside anyOf, oneOf, not or if (ajv refuses those in
 * strict mode). One difference is known: ajv fills an object's defaults after checking
 * its enum, const, not, anyOf, oneOf and if; this pass fills them before validation.
 * `view`: the data as cfworker must see it, to decide an `if`.
 */
export function applyDefaults(plan: DefaultsPlan, data: unknown, view: (value: unknown) => unknown): void {
  fill(plan.prepared.root, data, plan, view);
}

function fill(node: unknown, data: unknown, plan: DefaultsPlan, view: (value: unknown) => unknown): void {
  if (!isSchemaNode(node)) return;
  const recurse = (schema: unknown, value: unknown) => fill(schema, value, plan, view);
  if (node.$ref !== undefined) recurse(resolveRef(node, plan.prepared.lookup), data);
  if (Array.isArray(node.allOf)) for (const branch of node.allOf) recurse(branch, data);
  if (node.if !== undefined && (node.then !== undefined || node.else !== undefined)) {
    const holds = validate(view(data), node.if as SchemaNode, '2019-09', plan.prepared.lookup, true).valid;
    recurse(holds ? node.then : node.else, data);
  }
  if (isSchemaNode(data) && usesGroup(node, 'object')) fillObject(node, data, plan.patterns.get(node) ?? [], recurse);
  if (Array.isArray(data) && usesGroup(node, 'array')) fillArray(node, data, recurse);
}

// Own data properties only (own-properties.ts): a missing "__proto__" or "constructor" is
// missing, not Object.prototype or Object, and a default fills it as an own key.
function fillObject(node: SchemaNode, data: Record<string, unknown>, matchers: Matchers, recurse: (schema: unknown, value: unknown) => void): void {
  const properties = isSchemaNode(node.properties) ? (node.properties as Record<string, unknown>) : {};
  for (const [name, schema] of Object.entries(properties)) {
    const fallback = isSchemaNode(schema) ? schema.default : undefined;
    if (fallback !== undefined && ownValue(data, name) === undefined) setOwn(data, name, structuredClone(fallback));
  }
  if (isSchemaNode(node.additionalProperties)) {
    for (const key of Object.keys(data)) {
      if (!Object.hasOwn(properties, key) && !matchers.some(([pattern]) => pattern.test(key))) recurse(node.additionalProperties, data[key]);
    }
  }
  if (isSchemaNode(node.dependencies)) {
    for (const [name, dependency] of Object.entries(node.dependencies)) {
      if (!Array.isArray(dependency) && ownValue(data, name) !== undefined) recurse(dependency, data);
    }
  }
  for (const [name, schema] of Object.entries(properties)) {
    const value = ownValue(data, name);
    if (value !== undefined) recurse(schema, value);
  }
  for (const [pattern, schema] of matchers) {
    for (const key of Object.keys(data)) if (pattern.test(key)) recurse(schema, data[key]);
  }
}

function fillArray(node: SchemaNode, data: unknown[], recurse: (schema: unknown, value: unknown) => void): void {
  const items = node.items;
  if (Array.isArray(items)) {
    for (const [index, schema] of items.entries()) {
      const fallback = isSchemaNode(schema) ? schema.default : undefined;
      if (fallback !== undefined && data[index] === undefined) data[index] = structuredClone(fallback);
    }
    if (isSchemaNode(node.additionalItems)) for (let i = items.length; i < data.length; i++) recurse(node.additionalItems, data[i]);
    for (let i = 0; i < Math.min(items.length, data.length); i++) recurse(items[i], data[i]);
  } else if (items !== undefined) {
    for (const item of data) recurse(items, item);
  }
}

/** Whether `value` is what JSON.parse makes (a default's structured clone stays what it is). */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return true;
  if (typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.every(isPlainJson);
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && Object.values(value).every(isPlainJson);
}
