import { dereference, type Schema } from '@cfworker/json-schema';
import { setOwn } from '../own-properties.js';
import {
  declaredTypes,
  FALSE_SCHEMA,
  HAD_FORMAT,
  isSchemaNode,
  KNOWN_KEYWORDS,
  ORIGINAL_TYPE,
  schemaTypes,
  subschemas,
  usesGroup,
  type SchemaNode,
} from './schema-keywords.js';

/** A schema made ready for `@cfworker/json-schema`, and its `$ref` lookup. */
export interface PreparedSchema {
  root: SchemaNode;
  lookup: Record<string, Schema | boolean>;
}

/**
 * A copy of `schema` that cfworker validates the way our ajv is configured: `format`
 * dropped (a hint for the model, never checked), `nullable: true` turned into a `null`
 * type, boolean schemas into objects (cfworker reports a `false` schema at a wrong
 * location). What was changed is remembered under symbols, for the error messages.
 */
export function prepareSchema(schema: object): PreparedSchema {
  const root = prepare(schema) as SchemaNode;
  return { root, lookup: dereference(root as Schema) };
}

function prepare(value: unknown): unknown {
  if (value === true) return {};
  if (value === false) return Object.assign({ not: {} }, { [FALSE_SCHEMA]: true });
  if (!isSchemaNode(value)) return value;
  // Own keys stay own keys: a "__proto__" keyword or property name must not become a prototype
  // (whose members cfworker would then read as keywords); strict mode refuses the keyword.
  const out: SchemaNode = {};
  for (const [keyword, item] of Object.entries(value)) {
    if (keyword === 'format') out[HAD_FORMAT] = true;
    // A copy the caller cannot change later; a string or number is one already.
    else setOwn(out, keyword, typeof item === 'object' && item !== null ? structuredClone(item) : item);
  }
  for (const [keyword, at, sub] of subschemas(value)) {
    if (at === undefined) setOwn(out, keyword, prepare(sub));
    else setOwn(out[keyword] as object, String(at), prepare(sub));
  }
  if (value.nullable === true && value.type !== undefined) {
    out[ORIGINAL_TYPE] = value.type;
    out.type = schemaTypes(value);
  }
  return out;
}

/** The schema a `$ref` points at, as cfworker resolves it. */
export function resolveRef(node: SchemaNode, lookup: PreparedSchema['lookup']): unknown {
  const uri = (node.__absolute_ref__ as string | undefined) ?? (node.$ref as string);
  return lookup[uri];
}

/** Subschemas that ajv evaluates as a "composite rule": defaults inside them are refused in strict mode. */
const COMPOSITE = new Set(['anyOf', 'oneOf', 'not', 'if', 'contains', 'propertyNames']);
/** Schemas that only annotate: ajv skips `patternProperties` whose schemas are all like this. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', '$comment', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * Refuse what ajv's strict mode refuses, without compiling anything: unknown keywords,
 * defaults ajv would ignore, contradictory `nullable`, keywords that do nothing, bad
 * regular expressions, references that resolve to nothing. Checks every schema
 * reachable from the root (through `$ref` too). Throws an Error naming the problem.
 */
export function checkStrictSchema({ root, lookup }: PreparedSchema): void {
  if (root.default !== undefined) throw new Error('strict mode: default is ignored in the schema root');
  const seen = new Map<SchemaNode, boolean>();
  const visit = (node: unknown, composite: boolean): void => {
    if (!isSchemaNode(node) || node[FALSE_SCHEMA] === true) return;
    if (seen.get(node) === true || seen.get(node) === composite) return;
    seen.set(node, composite);
    checkKeywords(node);
    if (composite) checkNoDefaults(node);
    if (node.$ref !== undefined) {
      const target = resolveRef(node, lookup);
      if (target === undefined) throw new Error(`can't resolve reference ${String(node.$ref)} from id #`);
      visit(target, composite);
    }
    for (const [keyword, , sub] of subschemas(node)) {
      if (keyword !== 'definitions' && keyword !== '$defs') visit(sub, composite || COMPOSITE.has(keyword));
    }
  };
  visit(root, false);
}

function checkKeywords(node: SchemaNode): void {
  for (const keyword of Object.keys(node)) {
    if (keyword === 'id') throw new Error('NOT SUPPORTED: keyword "id", use "$id" for schema ID');
    if (!KNOWN_KEYWORDS.has(keyword)) throw new Error(`strict mode: unknown keyword: "${keyword}"`);
  }
  if (node.$async === true) throw new Error('async schemas are not supported');
  const types = declaredTypes(node);
  if (types.includes('null') && node.nullable === false) throw new Error('type: null contradicts nullable: false');
  if (types.length === 0 && node.nullable !== undefined) throw new Error('"nullable" cannot be used without "type"');
  if (node.additionalItems !== undefined && !Array.isArray(node.items)) {
    throw new Error('strict mode: "additionalItems" is ignored when "items" is not an array of schemas');
  }
  for (const clause of ['then', 'else']) {
    if (node[clause] !== undefined && node.if === undefined) throw new Error(`strict mode: "${clause}" without "if" is ignored`);
  }
  if (typeof node.pattern === 'string') new RegExp(node.pattern, 'u');
  const patterns = isSchemaNode(node.patternProperties) ? node.patternProperties : {};
  for (const pattern of Object.keys(patterns)) new RegExp(pattern, 'u');
  const everyPatternTrivial = Object.values(patterns).every(isTrivialSchema);
  if (isSchemaNode(node.properties) && !everyPatternTrivial) {
    for (const pattern of Object.keys(patterns)) {
      for (const property of Object.keys(node.properties)) {
        if (new RegExp(pattern).test(property)) {
          throw new Error(`strict mode: property ${property} matches pattern ${pattern} (use allowMatchingProperties)`);
        }
      }
    }
  }
}

function isTrivialSchema(schema: unknown): boolean {
  return isSchemaNode(schema) && schema[FALSE_SCHEMA] !== true && Object.keys(schema).every((keyword) => ANNOTATIONS.has(keyword));
}

/** ajv fills no defaults inside anyOf, oneOf, not, if, contains or propertyNames, and says so in strict mode. */
function checkNoDefaults(node: SchemaNode): void {
  if (usesGroup(node, 'object') && isSchemaNode(node.properties)) {
    for (const [name, property] of Object.entries(node.properties)) {
      if (isSchemaNode(property) && property.default !== undefined) throw new Error(`strict mode: default is ignored for: ${name}`);
    }
  }
  if (usesGroup(node, 'array') && Array.isArray(node.items)) {
    for (const [index, item] of node.items.entries()) {
      if (isSchemaNode(item) && item.default !== undefined) throw new Error(`strict mode: default is ignored for: ${index}`);
    }
  }
}
