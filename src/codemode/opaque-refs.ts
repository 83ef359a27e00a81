import type { JsonValue } from '../core/types.js';

/**
 * The opaque values one program was given, by index, and the token that marks them on the way
 * out: the guest writes an opaque value as `{ [token]: index }`, a key it cannot read or guess,
 * and `revive` puts the value's ref in its place.
 */
export class OpaqueRefs {
  readonly #refs: JsonValue[] = [];

  constructor(readonly token: string = randomToken()) {}

  /** Keep a ref; returns the index the guest's opaque object stands for. */
  add(ref: JsonValue): number {
    return this.#refs.push(ref) - 1;
  }

  /** JSON text from the guest with every marker replaced by its ref (text without any is returned as it is). */
  revive(json: string): string {
    if (this.#refs.length === 0 || !json.includes(this.token)) return json;
    return JSON.stringify(this.parse(json));
  }

  /** Parse JSON text from the guest, markers replaced by their refs. */
  parse(json: string): JsonValue {
    if (this.#refs.length === 0 || !json.includes(this.token)) return JSON.parse(json) as JsonValue;
    return JSON.parse(json, (_key, value: unknown) => this.#refOf(value) ?? value) as JsonValue;
  }

  #refOf(value: unknown): JsonValue | undefined {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const keys = Object.keys(value);
    if (keys.length !== 1 || keys[0] !== this.token) return undefined;
    const index = (value as Record<string, unknown>)[this.token];
    return typeof index === 'number' ? this.#refs[index] : undefined;
  }
}

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `$opaque-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
