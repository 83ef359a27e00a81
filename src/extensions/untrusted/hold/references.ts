import type { JsonValue } from '../../../core/types.js';
import { nestedTooDeep, TOO_DEEP } from '../../../validation/args-depth.js';
import { setOwn } from '../../../validation/own-properties.js';

/** The key a reference to a held value is made of: `{ "$held": "$N" }`, that key and nothing else. */
export const HELD_KEY = '$held';

/** The most references one call's arguments may make: each puts a whole value in. */
export const MAX_REFERENCES = 64;

/** One reference in a call's arguments: where it is (a JSON Pointer, as the tool receives the arguments) and the id it names. */
export interface HeldReference {
  path: string;
  id: string;
}

/** What a call's arguments refer to, or why they cannot be read as references. */
export type References = { ok: true; found: HeldReference[] } | { ok: false; problem: string };

/**
 * Every `{ "$held": "$N" }` in a call's decoded arguments, in document order, at any depth. Only
 * the model's arguments are walked: a held value put in for a reference is never read for more.
 * Own keys only, as JSON holds them (`__proto__` is a key like any other). An object with `$held`
 * and anything else, or a `$held` that is not a string, is not a reference the model may make.
 */
export function referencesIn(args: unknown): References {
  const found: HeldReference[] = [];
  const stack: Array<[unknown, string]> = [[args, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}/${i}`]);
      continue;
    }
    const keys = Object.keys(value);
    if (Object.hasOwn(value, HELD_KEY)) {
      const id = (value as Record<string, unknown>)[HELD_KEY];
      if (keys.length !== 1 || typeof id !== 'string')
        return { ok: false, problem: `${path || '/'}: a held value is passed as {"$held": "$N"} and nothing else` };
      found.push({ path, id });
      if (found.length > MAX_REFERENCES) return { ok: false, problem: `more than ${MAX_REFERENCES} held values in one call` };
      continue;
    }
    for (let i = keys.length - 1; i >= 0; i--) stack.push([(value as Record<string, unknown>)[keys[i]!], `${path}/${pointerToken(keys[i]!)}`]);
  }
  return { ok: true, found };
}

/** Whether decoded arguments name a held value at all: the cheap test every call of a run in hold mode takes. */
export function mentionsHeld(args: unknown): boolean {
  if (typeof args === 'string') return args.includes(HELD_KEY);
  if (typeof args !== 'object' || args === null) return false;
  const stack: unknown[] = [args];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push(item);
      continue;
    }
    if (Object.hasOwn(value, HELD_KEY)) return true;
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (typeof item === 'object' && item !== null) stack.push(item);
    }
  }
  return false;
}

/**
 * A copy of `args` with each reference replaced by a copy of its value (`values` by id), or why
 * not: arguments that nest too deep once the values are in are refused as any such arguments are.
 * Keys are set as own properties (`__proto__` stays a key, never a prototype).
 */
export function withHeldValues(args: unknown, values: ReadonlyMap<string, JsonValue>): { ok: true; value: unknown } | { ok: false; problem: string } {
  const value = replaced(args, values);
  if (nestedTooDeep(value)) return { ok: false, problem: `${TOO_DEEP} (with the held values put in)` };
  return { ok: true, value };
}

/** One level of the copy: the model's arguments are at most 64 levels deep (decode refused deeper), so this recursion is bounded. */
function replaced(value: unknown, values: ReadonlyMap<string, JsonValue>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => replaced(item, values));
  if (Object.hasOwn(value, HELD_KEY)) return structuredClone(values.get((value as Record<string, string>)[HELD_KEY]!));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwn(out, key, replaced((value as Record<string, unknown>)[key], values));
  return out;
}

/** A key as a JSON Pointer token (RFC 6901): `~` is `~0`, `/` is `~1`. */
export function pointerToken(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The top-level argument a JSON Pointer is in (its first token, decoded), or undefined for the whole arguments. */
export function topLevelOf(path: string): string | undefined {
  if (path === '') return undefined;
  const token = path.slice(1).split('/')[0]!;
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}
