// The first place two JSON values differ, in document order, as a JSON Pointer.

export interface Difference {
  /** A JSON Pointer (RFC 6901) into both values: `''` for the root, `/tools/2/description`. */
  path: string;
  recorded: unknown;
  now: unknown;
}

/** Where `recorded` and `now` first differ (own keys only; object key order does not matter), or undefined if equal. */
export function firstDifference(recorded: unknown, now: unknown): Difference | undefined {
  // Iterative, in document order: a hand-made cassette cannot overflow the stack.
  const stack: Array<[string, unknown, unknown]> = [['', recorded, now]];
  while (stack.length > 0) {
    const [path, a, b] = stack.pop()!;
    if (Object.is(a, b)) continue;
    const kindA = kindOf(a);
    if (kindA !== kindOf(b) || (kindA !== 'array' && kindA !== 'object')) return { path, recorded: a, now: b };
    const children: Array<[string, unknown, unknown]> = [];
    if (kindA === 'array') {
      const x = a as unknown[];
      const y = b as unknown[];
      for (let i = 0; i < Math.max(x.length, y.length); i++) children.push([`${path}/${i}`, i < x.length ? x[i] : undefined, i < y.length ? y[i] : undefined]);
    } else {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      const keys = [...Object.keys(x), ...Object.keys(y).filter((key) => !Object.hasOwn(x, key))];
      for (const key of keys)
        children.push([`${path}/${pointerKey(key)}`, Object.hasOwn(x, key) ? x[key] : undefined, Object.hasOwn(y, key) ? y[key] : undefined]);
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

const pointerKey = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** A value as a mismatch shows it: JSON, cut to `max` characters; `(absent)` where there is none. */
export function shown(value: unknown, max = 120): string {
  if (value === undefined) return '(absent)';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
