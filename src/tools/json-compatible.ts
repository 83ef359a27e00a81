import type { JsonValue } from '../core/types.js';

/**
 * Whether a tool may return `T`: what the model reads of an output is `JSON.stringify(output)`,
 * so a `Map`, a `Set`, a function, a `bigint` or a symbol (anywhere in it) would be lost or
 * throw at run time, where the call fails as `crashed`. Values with a `toJSON` (a `Date`) are
 * fine, as are boxed primitives, and `unknown`/`any` pass unchecked.
 */
export type IsJsonCompatible<T> = unknown extends T
  ? true
  : // biome-ignore lint/suspicious/noConfusingVoidType: a tool that returns nothing returns void
    T extends JsonValue | undefined | void
    ? true
    : // A boxed primitive (`new String('x')`) stringifies as its value; its valueOf gives a primitive.
      T extends { toJSON(): unknown } | { valueOf(): string | number | boolean }
      ? true
      : T extends
            | ((...args: never[]) => unknown)
            | ReadonlyMap<unknown, unknown>
            | ReadonlySet<unknown>
            | WeakMap<object, unknown>
            | WeakSet<object>
            | bigint
            | symbol
        ? false
        : T extends readonly (infer Item)[]
          ? IsJsonCompatible<Item>
          : T extends object
            ? false extends { [K in keyof T]-?: IsJsonCompatible<T[K]> }[keyof T]
              ? false
              : true
            : false;

/** The property `defineTool`'s spec gains when the output is not JSON: nobody can give it, and its name says the rule. */
export type JsonOutputRule = { 'the tool must return a JSON value (no Map, Set, function, bigint or symbol)': never };

/** `JsonOutputRule` when the output is not JSON, else nothing more. */
export type JsonOutputCheck<Output> = false extends IsJsonCompatible<Output> ? JsonOutputRule : unknown;

/**
 * What a spec says of its effects (`Effects`, a union), unless the output is not JSON: then a
 * single object type with the rule's property, so the compiler's one complaint is the JSON rule
 * (a union would be explained by its last member, "Property 'idempotent' is missing", even where
 * `readOnly: true` was given).
 */
export type EffectsOrJsonRule<Effects, Output> =
  false extends IsJsonCompatible<Output> ? { readOnly?: boolean; idempotent?: boolean } & JsonOutputRule : Effects;
