import { type GbnfRules, literal } from './gbnf.js';

/**
 * JSON Schema → GBNF, for the subset tool parameters use: objects (properties, required),
 * string (min/maxLength), number, integer, boolean, null, enum, const, arrays (items,
 * min/maxItems), type lists, anyOf/oneOf, nested objects. Anything else (`$ref`, `allOf`,
 * `pattern`, `minimum`, tuples...) is looser in the grammar than in the schema: a generic JSON
 * value, or the keyword ignored. The ToolManager still validates every call against the schema.
 */

/** Repetition bounds above this are left out: llama.cpp unrolls `x{m,n}` into n rules. */
export const MAX_UNROLLED_REPEAT = 64;

type Schema = Record<string, unknown>;

/** The shared JSON rules; whitespace is at most one space, so a weak model cannot loop on blanks. */
const JSON_RULES: ReadonlyArray<[string, string]> = [
  ['ws', '" "?'],
  ['json-value', 'json-object | json-array | json-string | json-number | json-boolean | json-null'],
  ['json-object', '"{" ws ( json-string ws ":" ws json-value ( ws "," ws json-string ws ":" ws json-value )* )? ws "}"'],
  ['json-array', '"[" ws ( json-value ( ws "," ws json-value )* )? ws "]"'],
  ['json-string', '"\\"" json-char* "\\""'],
  ['json-char', '[^"\\\\\\x7F\\x00-\\x1F] | "\\\\" ( ["\\\\/bfnrt] | "u" [0-9a-fA-F]{4} )'],
  // Up to 21 integer and 24 fraction digits: every double JavaScript prints without an exponent.
  ['json-number', '"-"? ( "0" | [1-9] [0-9]{0,20} ) ( "." [0-9]{1,24} )? ( [eE] [-+]? [0-9]{1,3} )?'],
  // Up to 16 digits: beyond that an integer is not exact in JavaScript anyway.
  ['json-integer', '"-"? ( "0" | [1-9] [0-9]{0,15} )'],
  ['json-boolean', '"true" | "false"'],
  ['json-null', '"null"'],
];
const DEPENDS: Record<string, string[]> = {
  'json-value': ['json-object', 'json-array', 'json-string', 'json-number', 'json-boolean', 'json-null'],
  'json-object': ['ws', 'json-string', 'json-value'],
  'json-array': ['ws', 'json-value'],
  'json-string': ['json-char'],
};

/** Define a shared JSON rule (and the rules it uses) and return its name. */
export function jsonRule(rules: GbnfRules, name: string): string {
  if (rules.has(name)) return name;
  const body = JSON_RULES.find(([rule]) => rule === name)?.[1];
  if (body === undefined) throw new Error(`no JSON rule named ${name}`);
  rules.define(name, body);
  for (const dependency of DEPENDS[name] ?? []) jsonRule(rules, dependency);
  return name;
}

/** Add rules for values matching `schema`; return the name of the rule that matches one. */
export function schemaRule(rules: GbnfRules, schema: unknown, hint: string): string {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return jsonRule(rules, 'json-value');
  const s = schema as Schema;
  if ('const' in s) return rules.add(hint, literal(JSON.stringify(s.const)));
  if (Array.isArray(s.enum) && s.enum.length > 0) return rules.add(hint, s.enum.map((value) => literal(JSON.stringify(value))).join(' | '));
  const choices = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (choices && choices.length > 0) return alternatives(rules, choices, hint);
  if (Array.isArray(s.allOf) && s.allOf.length === 1) return schemaRule(rules, s.allOf[0], hint);
  if ('$ref' in s || 'allOf' in s || 'not' in s) return jsonRule(rules, 'json-value');
  if (Array.isArray(s.type))
    return alternatives(
      rules,
      s.type.map((type) => ({ ...s, type })),
      hint,
    );
  switch (s.type ?? impliedType(s)) {
    case 'string':
      return stringRule(rules, s, hint);
    case 'integer':
      return jsonRule(rules, 'json-integer');
    case 'number':
      return jsonRule(rules, 'json-number');
    case 'boolean':
      return jsonRule(rules, 'json-boolean');
    case 'null':
      return jsonRule(rules, 'json-null');
    case 'array':
      return arrayRule(rules, s, hint);
    case 'object':
      return objectRule(rules, s, hint);
    default:
      return jsonRule(rules, 'json-value');
  }
}

function impliedType(s: Schema): string | undefined {
  if (typeof s.properties === 'object' || 'additionalProperties' in s || Array.isArray(s.required)) return 'object';
  if ('items' in s) return 'array';
  return undefined;
}

function alternatives(rules: GbnfRules, choices: unknown[], hint: string): string {
  const names = choices.map((choice, i) => schemaRule(rules, choice, `${hint}-${i}`));
  return rules.add(hint, [...new Set(names)].join(' | '));
}

function stringRule(rules: GbnfRules, s: Schema, hint: string): string {
  const min = bound(s.minLength) ?? 0;
  const max = bound(s.maxLength);
  if (min === 0 && max === undefined) return jsonRule(rules, 'json-string');
  jsonRule(rules, 'json-char');
  return rules.add(hint, `"\\"" json-char${repeat(min, max)} "\\""`);
}

function arrayRule(rules: GbnfRules, s: Schema, hint: string): string {
  // Tuples (`items` as a list, `prefixItems`) are not modelled: any JSON array.
  if (Array.isArray(s.items) || 'prefixItems' in s) return jsonRule(rules, 'json-array');
  const item = schemaRule(rules, s.items, `${hint}-item`);
  const ws = jsonRule(rules, 'ws');
  const min = bound(s.minItems) ?? 0;
  const max = bound(s.maxItems);
  if (max === 0) return rules.add(hint, `"[" ${ws} "]"`);
  const more = max === undefined ? undefined : max - 1;
  const items = more === 0 ? item : `${item} ( ${ws} "," ${ws} ${item} )${repeat(Math.max(0, min - 1), more)}`;
  return rules.add(hint, `"[" ${ws} ${min > 0 ? items : `( ${items} )?`} ${ws} "]"`);
}

/**
 * Properties in the schema's order, each required one present, each optional one present or
 * not, commas only between present ones. No other keys: the grammar never invents a property.
 * An object schema with no `properties` takes any keys (with `additionalProperties`' values).
 */
function objectRule(rules: GbnfRules, s: Schema, hint: string): string {
  const ws = jsonRule(rules, 'ws');
  const properties = { ...((typeof s.properties === 'object' && s.properties) || {}) } as Record<string, unknown>;
  const required = new Set(Array.isArray(s.required) ? (s.required as unknown[]).filter((key): key is string => typeof key === 'string') : []);
  for (const key of required) if (!(key in properties)) properties[key] = true;
  const keys = Object.keys(properties);
  if (keys.length === 0) return freeObjectRule(rules, s, hint);

  const pairs = keys.map((key) => `${literal(JSON.stringify(key))} ${ws} ":" ${ws} ${schemaRule(rules, properties[key], `${hint}-${key}`)}`);
  // After a present pair, the later ones: `, pair` (required) or `(, pair)?` (optional).
  const rest = (from: number) =>
    keys
      .slice(from)
      .map((key, i) => (required.has(key) ? `${ws} "," ${ws} ${pairs[from + i]}` : `( ${ws} "," ${ws} ${pairs[from + i]} )?`))
      .join(' ');
  // The first present pair is any optional one up to the first required one.
  const firstRequired = keys.findIndex((key) => required.has(key));
  const lastFirst = firstRequired === -1 ? keys.length - 1 : firstRequired;
  const starts: string[] = [];
  for (let i = 0; i <= lastFirst; i++) starts.push(`${pairs[i]} ${rest(i + 1)}`.trim());
  const body = starts.length === 1 ? starts[0]! : `( ${starts.join(' | ')} )`;
  return rules.add(hint, `"{" ${ws} ${firstRequired === -1 ? `( ${body} )?` : body} ${ws} "}"`);
}

function freeObjectRule(rules: GbnfRules, s: Schema, hint: string): string {
  const extra = s.additionalProperties;
  if (typeof extra !== 'object' || extra === null) {
    // `additionalProperties: false` with no properties allows only `{}`.
    return extra === false ? rules.add(hint, `"{" ${jsonRule(rules, 'ws')} "}"`) : jsonRule(rules, 'json-object');
  }
  const ws = jsonRule(rules, 'ws');
  const key = jsonRule(rules, 'json-string');
  const pair = `${key} ${ws} ":" ${ws} ${schemaRule(rules, extra, `${hint}-value`)}`;
  return rules.add(hint, `"{" ${ws} ( ${pair} ( ${ws} "," ${ws} ${pair} )* )? ${ws} "}"`);
}

/** A whole-number keyword's value, or undefined when absent or too large to unroll. */
function bound(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_UNROLLED_REPEAT ? value : undefined;
}

/** GBNF repetition for `min` to `max` times (`max` undefined: no upper bound). */
function repeat(min: number, max: number | undefined): string {
  if (max === undefined) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  if (min === 0 && max === 1) return '?';
  return min === max ? `{${min}}` : `{${min},${max}}`;
}
