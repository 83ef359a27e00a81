import { deepCompareStrict } from '@cfworker/json-schema';
import { ownValue } from '../own-properties.js';
import { hasType, isSchemaNode, ORIGINAL_TYPE, schemaTypes, type SchemaNode } from './schema-keywords.js';

/** What ajv reports for one failed assertion: its params and its (English) message. */
export interface Wording {
  params: Record<string, unknown>;
  message: string;
}

const COMPARISONS: Record<string, string> = { maximum: '<=', minimum: '>=', exclusiveMaximum: '<', exclusiveMinimum: '>' };
const UNITS: Record<string, string> = { Length: 'characters', Items: 'items', Properties: 'properties' };

/**
 * ajv's wording when `keyword` of `node` fails on `data`, for the keywords that report once
 * and need nothing but the schema and the data; undefined where ajv reports nothing.
 */
export function wordingOf(node: SchemaNode, keyword: string, data: unknown): Wording | undefined {
  const limit = node[keyword] as number;
  switch (keyword) {
    case 'type': {
      const type = node[ORIGINAL_TYPE] ?? node.type;
      return { params: { type }, message: `must be ${String(type)}` };
    }
    case 'const':
      return { params: { allowedValue: node.const }, message: 'must be equal to constant' };
    case 'enum':
      return { params: { allowedValues: node.enum }, message: 'must be equal to one of the allowed values' };
    case 'not':
      return { params: {}, message: 'must NOT be valid' };
    case 'anyOf':
      return { params: {}, message: 'must match a schema in anyOf' };
    case 'oneOf':
      return { params: {}, message: 'must match exactly one schema in oneOf' };
    case 'maximum':
    case 'minimum':
    case 'exclusiveMaximum':
    case 'exclusiveMinimum':
      return { params: { comparison: COMPARISONS[keyword], limit }, message: `must be ${COMPARISONS[keyword]} ${limit}` };
    case 'multipleOf':
      return { params: { multipleOf: limit }, message: `must be multiple of ${limit}` };
    case 'maxLength':
    case 'minLength':
    case 'maxItems':
    case 'minItems':
    case 'maxProperties':
    case 'minProperties': {
      const more = keyword.startsWith('max') ? 'more' : 'fewer';
      return { params: { limit }, message: `must NOT have ${more} than ${limit} ${UNITS[keyword.slice(3)]}` };
    }
    case 'pattern':
      return { params: { pattern: node.pattern }, message: `must match pattern "${String(node.pattern)}"` };
    case 'uniqueItems': {
      const pair = duplicatePair(node, data as unknown[]);
      return pair && { params: pair, message: `must NOT have duplicate items (items ## ${pair.j} and ${pair.i} are identical)` };
    }
    case 'contains':
      return { params: { minContains: 1 }, message: 'must contain at least 1 valid item(s)' };
    default:
      return undefined;
  }
}

/** ajv reports each missing required property (an own one: as JSON has them), in the schema's order. */
export function missingRequired(node: SchemaNode, data: unknown): Wording[] {
  const object = data as object;
  return (node.required as string[])
    .filter((name) => ownValue(object, name) === undefined)
    .map((missingProperty) => ({ params: { missingProperty }, message: `must have required property '${missingProperty}'` }));
}

/** Property dependencies (`a` needs `b` and `c`): each missing property, entry by entry (`entry`: its index). */
export function missingDependencies(node: SchemaNode, data: unknown): Array<Wording & { entry: number }> {
  const object = data as object;
  const found: Array<Wording & { entry: number }> = [];
  for (const [entry, [property, deps]] of Object.entries(node.dependencies as Record<string, unknown>).entries()) {
    if (!Array.isArray(deps) || ownValue(object, property) === undefined) continue;
    const message = `must have ${deps.length === 1 ? 'property' : 'properties'} ${deps.join(', ')} when property ${property} is present`;
    for (const missingProperty of deps as string[]) {
      if (ownValue(object, missingProperty) === undefined)
        found.push({ entry, params: { property, missingProperty, depsCount: deps.length, deps: deps.join(', ') }, message });
    }
  }
  return found;
}

/** The first duplicate pair ajv finds (it scans from the end; with scalar item types, by a lookup table). */
function duplicatePair(node: SchemaNode, data: unknown[]): { i: number; j: number } | undefined {
  const itemTypes = isSchemaNode(node.items) ? schemaTypes(node.items) : [];
  if (itemTypes.length > 0 && !itemTypes.some((t) => t === 'object' || t === 'array')) {
    const indices = new Map<string, number>();
    for (let i = data.length - 1; i >= 0; i--) {
      const item = data[i];
      if (!hasType(item, itemTypes)) continue;
      const key = itemTypes.length > 1 && typeof item === 'string' ? `${item}_` : String(item);
      const j = indices.get(key);
      if (j !== undefined) return { i, j };
      indices.set(key, i);
    }
    return undefined;
  }
  for (let i = data.length - 1; i >= 0; i--) {
    for (let j = i - 1; j >= 0; j--) if (deepCompareStrict(data[i], data[j])) return { i, j };
  }
  return undefined;
}
