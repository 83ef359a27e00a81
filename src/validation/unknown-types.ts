/** The types a JSON Schema `type` may name. */
export const JSON_SCHEMA_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

/** What other languages call a JSON Schema type: the name to use instead. */
const SAID_ELSEWHERE = new Map<string, (typeof JSON_SCHEMA_TYPES)[number]>([
  ['int', 'integer'],
  ['int32', 'integer'],
  ['int64', 'integer'],
  ['long', 'integer'],
  ['float', 'number'],
  ['double', 'number'],
  ['decimal', 'number'],
  ['bool', 'boolean'],
  ['str', 'string'],
  ['text', 'string'],
  ['list', 'array'],
  ['dict', 'object'],
  ['map', 'object'],
  ['record', 'object'],
  ['none', 'null'],
]);

/**
 * The `type` keywords the meta-schema refused (a problem at a path ending in `/type`) whose value
 * names no JSON Schema type, each with a message that names the allowed types (and the one meant,
 * for a name from another language such as `int`).
 */
export function unknownTypes(schema: object, problems: ReadonlyArray<{ instancePath: string }>): Array<{ path: string; message: string }> {
  const found = new Map<string, string>();
  for (const { instancePath } of problems) {
    if (found.has(instancePath) || !instancePath.endsWith('/type')) continue;
    const value = at(schema, instancePath);
    const named = typeof value === 'string' ? [value] : Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : [];
    const unknown = named.filter((name) => !(JSON_SCHEMA_TYPES as readonly string[]).includes(name));
    if (unknown.length === 0) continue;
    const meant = unknown.slice(0, 5).flatMap((name) => {
      const instead = SAID_ELSEWHERE.get(name.toLowerCase());
      return instead ? [`${JSON.stringify(instead)} for ${JSON.stringify(name)}`] : [];
    });
    found.set(
      instancePath,
      `${instancePath} is ${JSON.stringify(value).slice(0, 200)}: ${listed(unknown)} ${unknown.length === 1 ? 'is not a JSON Schema type' : 'are not JSON Schema types'}; ` +
        `use one of ${JSON_SCHEMA_TYPES.map((t) => JSON.stringify(t)).join(', ')}${meant.length ? ` (${meant.join(', ')})` : ''}`,
    );
  }
  return [...found].map(([path, message]) => ({ path, message }));
}

/** Up to five names, quoted and cut short, then how many more. */
function listed(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((name) => JSON.stringify(name.slice(0, 60)));
  return names.length > 5 ? `${shown.join(', ')} and ${names.length - 5} more` : shown.join(', ');
}

/** The value at a JSON Pointer, own properties only; undefined where there is none. */
function at(root: unknown, pointer: string): unknown {
  let value = root;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
