/** `fields` without the ones that are undefined: options as plain data, for postMessage and for `exactOptionalPropertyTypes`. */
export function defined<T extends Record<string, unknown>>(fields: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as never;
}
