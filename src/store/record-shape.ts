/** A plain object (not null, not an array): what every stored record and message is. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An epoch-milliseconds time, as the stores write `createdAt` and `updatedAt`. */
export function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A value as an error message shows it: short, and never the whole of a large one. */
export function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  const text =
    typeof value === 'string'
      ? JSON.stringify(value)
      : Array.isArray(value)
        ? 'a list'
        : value === null
          ? 'null'
          : typeof value === 'object'
            ? 'an object'
            : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
