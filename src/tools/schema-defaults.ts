import { validate } from '@cfworker/json-schema';
import { resolveRef, type PreparedSchema } from './no-eval-schema.js';
import { isObjectData, isSchemaNode, usesGroup, type SchemaNode } from './schema-keywords.js';

/**
 * Fill `default`s into `data` where ajv's `useDefaults` would: a missing property of an
 * object (a missing item of a tuple) whose schema has a default, through `$ref`, `allOf`,
 * `then`/`else`, `properties`, `patternProperties`, `additionalProperties`, schema
 * `dependencies` and `items`; never inside anyOf, oneOf, not or if (ajv refuses those in
 * strict mode). One difference is known: ajv fills an object's defaults after checking
 * its enum, const, not, anyOf, oneOf and if; this pass fills them before validation.
 */
export function applyDefaults(node: unknown, data: unknown, prepared: PreparedSchema, view: (value: unknown) => unknown): void {
  if (!isSchemaNode(node)) return;
  const recurse = (schema: unknown, value: unknown) => applyDefaults(schema, value, prepared, view);
  if (node.$ref !== undefined) recurse(resolveRef(node, prepared.lookup), data);
  if (Array.isArray(node.allOf)) for (const branch of node.allOf) recurse(branch, data);
  if (node.if !== undefined && (node.then !== undefined || node.else !== undefined)) {
    const holds = validate(view(data), node.if as SchemaNode, '2019-09', prepared.lookup, true).valid;
    recurse(holds ? node.then : node.else, data);
  }
  if (isObjectData(data) && usesGroup(node, 'object')) fillObject(node, data, recurse);
  if (Array.isArray(data) && usesGroup(node, 'array')) fillArray(node, data, recurse);
}

function fillObject(node: SchemaNode, data: Record<string, unknown>, recurse: (schema: unknown, value: unknown) => void): void {
  const properties = isSchemaNode(node.properties) ? (node.properties as Record<string, unknown>) : {};
  for (const [name, schema] of Object.entries(properties)) {
    const fallback = isSchemaNode(schema) ? schema.default : undefined;
    if (fallback !== undefined && data[name] === undefined) data[name] = structuredClone(fallback);
  }
  const patterns = isSchemaNode(node.patternProperties) ? Object.entries(node.patternProperties as Record<string, unknown>) : [];
  const matchers = patterns.map(([pattern, schema]) => [new RegExp(pattern, 'u'), schema] as const);
  if (isSchemaNode(node.additionalProperties)) {
    for (const key of Object.keys(data)) {
      if (!(key in properties) && !matchers.some(([pattern]) => pattern.test(key))) recurse(node.additionalProperties, data[key]);
    }
  }
  if (isSchemaNode(node.dependencies)) {
    for (const [name, dependency] of Object.entries(node.dependencies)) {
      if (!Array.isArray(dependency) && data[name] !== undefined) recurse(dependency, data);
    }
  }
  for (const [name, schema] of Object.entries(properties)) if (data[name] !== undefined) recurse(schema, data[name]);
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
