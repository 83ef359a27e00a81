// Arguments, schemas and outputs are read and written as JSON is: through own data properties
// only. A plain `object[key]` reads Object.prototype's members (`toString`, `constructor`, …) for
// keys the object lacks, and `object['__proto__'] = value` replaces its prototype (or, reached
// through an inherited `__proto__`, writes into Object.prototype itself).

/** The value of `key` if `object` has it as its own property; undefined otherwise. */
export function ownValue(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/**
 * Set `key` as an own, enumerable data property of `object` (one this code made, with
 * Object.prototype or none as its prototype), even when `key` is "__proto__", or a member
 * an assignment could not shadow (a frozen Object.prototype, as hardened pages have).
 */
export function setOwn(object: object, key: string, value: unknown): void {
  if (key in Object.prototype) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  else (object as Record<string, unknown>)[key] = value;
}
