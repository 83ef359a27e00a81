/**
 * A server's schema as this SDK validates it. Servers declare 2020-12 (MCP's default dialect,
 * and what zod 4 writes) where our validators read draft-07 and refuse an unknown `$schema`:
 * the declaration goes, the keywords stay (those two dialects share the ones tools use).
 * A keyword draft-07 lacks (`prefixItems`, say) still fails registration, naming the tool.
 */
export function withoutDialect<S extends object>(schema: S): S {
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared === undefined || (typeof declared === 'string' && /json-schema\.org\/draft-07\/schema#?$/.test(declared))) return schema;
  const { $schema: _, ...rest } = schema as S & { $schema?: unknown };
  return rest as S;
}
