import { subschemas, isSchemaNode, type SchemaNode } from '../validation/no-eval/schema-keywords.js';
import { setOwn } from '../validation/own-properties.js';

/**
 * A server's schema as this SDK validates it (and shows it to the model): in the draft-07
 * our validators read, without what only annotates it for other tools.
 * - Servers declare 2020-12 (MCP's default dialect, and what zod 4 writes) where our
 *   validators read draft-07 and refuse an unknown `$schema`: the declaration goes, the
 *   keywords stay (those two dialects share the ones tools use).
 * - Vendor keywords (`x-order`, `x-go-type`, any `x-…`: OpenAPI's extensions, written by
 *   code generators) annotate and never constrain: they are dropped wherever a schema sits,
 *   never a property of that name. Our own tools' schemas stay strict: there an unknown
 *   keyword is a mistake.
 * A keyword draft-07 lacks (`prefixItems`, say) still fails the check; that tool is left out.
 */
export function serverSchema<S extends object>(schema: S): S {
  const declared = (schema as { $schema?: unknown }).$schema;
  const dialectless = declared === undefined || (typeof declared === 'string' && /json-schema\.org\/draft-07\/schema#?$/.test(declared));
  const kept = hasVendorKeyword(schema) ? (withoutVendorKeywords(schema) as S) : schema;
  if (dialectless) return kept;
  const { $schema: _, ...rest } = kept as S & { $schema?: unknown };
  return rest as S;
}

/** A copy of a schema node without `x-` keywords, in it and in every subschema. */
function withoutVendorKeywords(node: unknown): unknown {
  if (!isSchemaNode(node)) return node;
  const out: SchemaNode = {};
  for (const [keyword, value] of Object.entries(node)) if (!isVendor(keyword)) setOwn(out, keyword, value);
  for (const [keyword, at, sub] of subschemas(node)) {
    if (at === undefined) {
      setOwn(out, keyword, withoutVendorKeywords(sub));
      continue;
    }
    // A list or map of subschemas: copied once, never written into the server's own object.
    const holder = node[keyword] as Record<string, unknown> | unknown[];
    if (out[keyword] === holder) setOwn(out, keyword, Array.isArray(holder) ? [...holder] : { ...holder });
    setOwn(out[keyword] as object, String(at), withoutVendorKeywords(sub));
  }
  return out;
}

/** Whether any schema in `node` has an `x-` keyword (most have none: no copy then). Iterative: a schema may be deep. */
function hasVendorKeyword(node: object): boolean {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const item = stack.pop();
    if (!isSchemaNode(item)) continue;
    if (Object.keys(item).some(isVendor)) return true;
    for (const [, , sub] of subschemas(item)) stack.push(sub);
  }
  return false;
}

const isVendor = (keyword: string) => keyword.startsWith('x-');
