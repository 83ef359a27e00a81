// What the no-eval validator knows of ajv's draft-07 behaviour: which keywords exist, where
// subschemas sit, and the order in which ajv evaluates keywords (and so reports problems).

/** A schema object (boolean schemas are handled where they can appear). */
export type SchemaNode = { [key: string]: unknown; [key: symbol]: unknown };

/** Keywords ajv's default (draft-07) instance knows; in strict mode any other is refused. */
export const KNOWN_KEYWORDS = new Set([
  '$async',
  '$schema',
  '$id',
  '$defs',
  '$vocabulary',
  '$comment',
  'definitions',
  '$ref',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'multipleOf',
  'maxLength',
  'minLength',
  'pattern',
  'maxProperties',
  'minProperties',
  'required',
  'maxItems',
  'minItems',
  'uniqueItems',
  'type',
  'nullable',
  'const',
  'enum',
  'not',
  'anyOf',
  'oneOf',
  'allOf',
  'if',
  'then',
  'else',
  'propertyNames',
  'additionalProperties',
  'dependencies',
  'properties',
  'patternProperties',
  'additionalItems',
  'items',
  'contains',
  'format',
  'title',
  'description',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  'examples',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
]);

/** Keywords ajv evaluates for any data type, in its order; `then`/`else` report through `if`. */
const ANY_TYPE = ['$ref', 'const', 'enum', 'not', 'anyOf', 'oneOf', 'allOf', 'if'];

/** Keywords ajv evaluates only for data of one type, group by group, each group in its order. */
export const TYPE_GROUPS = {
  number: ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf', 'format'],
  string: ['maxLength', 'minLength', 'pattern', 'format'],
  array: ['maxItems', 'minItems', 'additionalItems', 'items', 'contains', 'uniqueItems'],
  object: ['maxProperties', 'minProperties', 'required', 'propertyNames', 'additionalProperties', 'dependencies', 'properties', 'patternProperties'],
} as const;
type Group = keyof typeof TYPE_GROUPS;
const GROUP_NAMES = Object.keys(TYPE_GROUPS) as Group[];

/** Set on a prepared schema that had `format` (dropped: formats are hints here, never checked). */
export const HAD_FORMAT = Symbol('ambi.hadFormat');
/** The `type` a prepared schema had before `nullable: true` added `"null"` to it. */
export const ORIGINAL_TYPE = Symbol('ambi.originalType');
/** Marks the `{ not: {} }` a boolean `false` schema is prepared as. */
export const FALSE_SCHEMA = Symbol('ambi.falseSchema');

/** An object that is not an array: a schema object, and ajv's notion of object data (what the `object` keyword group runs on). */
export function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The types a schema declares (before `nullable: true` added `null` to a prepared one). */
export function declaredTypes(node: SchemaNode): string[] {
  const declared = node[ORIGINAL_TYPE] ?? node.type;
  return declared === undefined ? [] : Array.isArray(declared) ? [...(declared as string[])] : [declared as string];
}

/** The types a schema allows, `nullable: true` adding `null` (as ajv's getSchemaTypes). */
export function schemaTypes(node: SchemaNode): string[] {
  const types = declaredTypes(node);
  if (node.nullable === true && !types.includes('null')) types.push('null');
  return types;
}

/** Whether ajv runs a keyword group for this schema (any of its keywords is present). */
export function usesGroup(node: SchemaNode, group: Group): boolean {
  return TYPE_GROUPS[group].some((keyword) => node[keyword] !== undefined || (keyword === 'format' && node[HAD_FORMAT] === true));
}

/**
 * Where ajv reports a problem of `keyword` among the problems of one schema at one data
 * location. A single `type` whose group the schema uses is checked with that group (after
 * the type-agnostic keywords); any other `type` is checked first.
 */
export function keywordRank(node: SchemaNode, keyword: string): number {
  if (keyword === 'then' || keyword === 'else') keyword = 'if';
  const any = ANY_TYPE.indexOf(keyword);
  if (any >= 0) return 10 + any;
  if (keyword === 'type') {
    const types = schemaTypes(node);
    const single = types.length === 1 ? GROUP_NAMES.indexOf(types[0] as Group) : -1;
    return single >= 0 && usesGroup(node, GROUP_NAMES[single]!) ? 100 * (single + 1) + 99 : 0;
  }
  for (const [index, group] of GROUP_NAMES.entries()) {
    const at = (TYPE_GROUPS[group] as readonly string[]).indexOf(keyword);
    if (at >= 0) return 100 * (index + 1) + at;
  }
  return 1000;
}

/** Whether `value` has one of `types`, as ajv checks data types. */
export function hasType(value: unknown, types: readonly string[]): boolean {
  return types.some((type) => {
    switch (type) {
      case 'null':
        return value === null;
      case 'array':
        return Array.isArray(value);
      case 'object':
        return isSchemaNode(value);
      case 'integer':
        return typeof value === 'number' && !(value % 1) && !Number.isNaN(value);
      default:
        return typeof value === type;
    }
  });
}

/** Keywords whose value is one schema. */
const SINGLE = ['additionalItems', 'additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'contentSchema'];
/** Keywords whose value is a list of schemas. */
const LIST = ['allOf', 'anyOf', 'oneOf'];
/** Keywords whose value maps names to schemas. */
const MAP = ['properties', 'patternProperties', 'definitions', '$defs'];

/** Each subschema of a schema: the keyword, the name or index under it (if any), the subschema. */
export function* subschemas(node: SchemaNode): Generator<[keyword: string, at: string | number | undefined, schema: unknown]> {
  for (const [keyword, value] of Object.entries(node)) {
    if (SINGLE.includes(keyword) || (keyword === 'items' && !Array.isArray(value))) yield [keyword, undefined, value];
    else if (LIST.includes(keyword) || (keyword === 'items' && Array.isArray(value))) {
      for (const [index, schema] of (value as unknown[]).entries()) yield [keyword, index, schema];
    } else if (MAP.includes(keyword) || keyword === 'dependencies') {
      for (const [name, schema] of Object.entries(value as SchemaNode)) {
        if (keyword === 'dependencies' && Array.isArray(schema)) continue;
        yield [keyword, name, schema];
      }
    }
  }
}
