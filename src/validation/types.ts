// The shapes validation speaks in: a mode, a check's outcome, a validator. Types only, so the
// validators and the code that picks one import them without importing each other.

/** The outcome of checking one call's arguments: the value to call with (defaults filled in), or problems. */
export type ArgsCheck = { ok: true; value: unknown } | { ok: false; problems: string[] };

/**
 * A check of one tool's arguments; a Standard Schema's may be asynchronous. `owned`: nothing
 * else holds `value` (it was just parsed from JSON text), so it may be written into and handed
 * to the tool as is; otherwise the value the tool gets is a copy.
 */
export type ArgsValidator = (value: unknown, owned?: boolean) => ArgsCheck | Promise<ArgsCheck>;

/** A compiled JSON Schema check of one tool's arguments (see ArgsValidator). */
export type JsonArgsValidator = (value: unknown, owned?: boolean) => ArgsCheck;

/** ajv's compiler behind a validator of a tool's arguments (ajv-validator.ts). */
export type AjvCompiler = (schema: object) => JsonArgsValidator;

/** How argument validators are built in a realm: see ToolRegistryOptions. */
export type ValidationMode = 'auto' | 'no-eval';
