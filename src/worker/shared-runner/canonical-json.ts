/** `value` as JSON with every object's keys sorted: equal for plain data that differs only in key order (a configuration, a tool's definition). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    // fromEntries defines each key as its own property, `__proto__` included.
    return Object.fromEntries(
      Object.keys(item)
        .sort()
        .map((key) => [key, (item as Record<string, unknown>)[key]]),
    );
  });
}
