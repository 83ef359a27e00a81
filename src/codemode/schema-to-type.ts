/**
 * A JSON Schema as a TypeScript type, for a model to read: the common keywords (type, enum,
 * const, properties with required, items, additionalProperties, anyOf/oneOf/allOf, nullable
 * by type array), descriptions as comments. What it does not follow (`$ref`, tuples, deeper
 * than MAX_DEPTH) is `unknown`: a model reads a looser type, never a wrong one. Schemas come
 * from MCP servers too: names are quoted, comments cannot be closed from inside.
 */
export function schemaToType(schema: unknown, indent = ''): string {
  return typeOf(schema, indent, 0);
}

const MAX_DEPTH = 8;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

type Schema = Record<string, unknown>;

function typeOf(schema: unknown, indent: string, depth: number): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema) || depth > MAX_DEPTH) return 'unknown';
  const s = schema as Schema;
  if ('const' in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.length === 0 ? 'never' : s.enum.map(literal).join(' | ');
  for (const [keyword, joiner] of [
    ['anyOf', ' | '],
    ['oneOf', ' | '],
    ['allOf', ' & '],
  ] as const) {
    const list = s[keyword];
    if (Array.isArray(list) && list.length > 0) return list.map((part) => wrap(typeOf(part, indent, depth + 1))).join(joiner);
  }
  const types = Array.isArray(s.type) ? s.type : typeof s.type === 'string' ? [s.type] : inferredTypes(s);
  if (types.length === 0) return 'unknown';
  return types.map((type) => wrap(typeOfType(String(type), s, indent, depth))).join(' | ');
}

function inferredTypes(s: Schema): string[] {
  if (typeof s.properties === 'object' && s.properties !== null) return ['object'];
  if ('items' in s) return ['array'];
  return [];
}

function typeOfType(type: string, s: Schema, indent: string, depth: number): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${wrap(typeOf(Array.isArray(s.items) ? undefined : s.items, indent, depth + 1))}[]`;
    case 'object':
      return objectType(s, indent, depth);
    default:
      return 'unknown';
  }
}

function objectType(s: Schema, indent: string, depth: number): string {
  const properties = typeof s.properties === 'object' && s.properties !== null && !Array.isArray(s.properties) ? (s.properties as Schema) : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((name): name is string => typeof name === 'string') : []);
  const inner = `${indent}  `;
  const members: string[] = [];
  for (const name of Object.keys(properties)) {
    const property = properties[name];
    const description = typeof property === 'object' && property !== null ? (property as Schema).description : undefined;
    if (typeof description === 'string' && description.trim()) members.push(`${inner}${docComment(description, inner)}`);
    members.push(`${inner}${memberName(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, inner, depth + 1)};`);
  }
  const extra = s.additionalProperties;
  if (typeof extra === 'object' && extra !== null) members.push(`${inner}[key: string]: ${typeOf(extra, inner, depth + 1)};`);
  else if (members.length === 0 && extra !== false) return 'Record<string, unknown>';
  return members.length === 0 ? '{}' : `{\n${members.join('\n')}\n${indent}}`;
}

/** A property or method name as TypeScript writes it: bare when it is an identifier, else quoted. */
export function memberName(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A `/** ... *\/` comment that nothing in `text` can close early. */
export function docComment(text: string, indent: string): string {
  const lines = text.replaceAll('*/', '*\\/').trim().split(/\r?\n/);
  return lines.length === 1 ? `/** ${lines[0]} */` : `/**\n${lines.map((line) => `${indent} * ${line}`).join('\n')}\n${indent} */`;
}

function literal(value: unknown): string {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  return 'unknown';
}

function wrap(type: string): string {
  return /[|&]/.test(type) && !type.startsWith('{') ? `(${type})` : type;
}
