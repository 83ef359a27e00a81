import { compileNoEvalValidator } from './no-eval/no-eval-validator.js';
import { inExtensionRealm } from './extension-realm.js';
import type { AjvCompiler, JsonArgsValidator, ValidationMode } from './types.js';

export const VALIDATION_MODES: readonly ValidationMode[] = ['auto', 'no-eval'];

// Found out once per realm: after the first EvalError, ajv's compiler is never tried again.
// Known from the start in an extension, whose CSP refuses eval (and reports every attempt).
let evalRefused = inExtensionRealm();
// ajv (with its compiler, about 35 KB gzip) is not imported here, nor named in an `import()`: a
// bundle of the registry alone (an extension's content script, built as one classic script, where
// every `import()` is inlined) holds none of it. The entry that wants it says where it comes from
// (`ajvFrom`: a ToolManager, see src/call/tool-manager.ts); in `auto` mode a tool's check loads it once the
// tool is busy (see tool-args-check.ts and loadAjv). Without a source, `auto` keeps the no-eval
// validator: the same decisions, interpreted.
let ajvCompiler: AjvCompiler | undefined;
let ajvSource: (() => Promise<AjvCompiler>) | undefined;

/** Make ajv's compiler available to `auto` validation in this realm. */
export function provideAjv(compile: AjvCompiler): void {
  ajvCompiler ??= compile;
}

/** Where `loadAjv` gets ajv's compiler in this realm (the first source given stays). */
export function ajvFrom(load: () => Promise<AjvCompiler>): void {
  ajvSource ??= load;
}

/** Load ajv's compiler into this realm from its source, once; nothing without a source. */
export async function loadAjv(): Promise<void> {
  if (!ajvCompiler && !evalRefused && ajvSource) provideAjv(await ajvSource());
}

/**
 * Build (once per schema object in this realm and mode) the validator of a tool's
 * arguments. `auto`: ajv's compiled validator, or, where the realm refuses eval, the
 * no-eval one (same decisions, same messages). `no-eval`: never ajv's compiler.
 * Throws an Error naming the problem when the schema itself is invalid.
 * `auto` before ajv was provided or loaded in this realm (a registry of an agent made in
 * `no-eval` mode, switched to `auto` later) also gets the no-eval validator.
 */
export function compileArgsValidator(schema: object, validation: ValidationMode = 'auto'): JsonArgsValidator {
  if (validation === 'no-eval' || evalRefused || !ajvCompiler) return compileNoEvalValidator(schema);
  try {
    return ajvCompiler(schema);
  } catch (error) {
    if (!isEvalRefusal(error)) throw error;
    evalRefused = true;
    return compileNoEvalValidator(schema);
  }
}

/** Whether `auto` validation has what it needs here: ajv's compiler (provided, or loaded by `loadAjv`), or a realm that refuses eval. */
export function ajvLoaded(): boolean {
  return ajvCompiler !== undefined || evalRefused;
}

/** Whether this realm refused ajv's eval (so `auto` now builds no-eval validators). */
export function evalRefusedInThisRealm(): boolean {
  return evalRefused;
}

/** The mode, checked: a typo such as `'noeval'` must not silently mean `auto`. */
export function checkValidationMode(value: unknown): ValidationMode {
  if (VALIDATION_MODES.includes(value as ValidationMode)) return value as ValidationMode;
  throw new TypeError(`validation must be 'auto' or 'no-eval', not ${JSON.stringify(value)}`);
}

/** A CSP without 'unsafe-eval' (or a realm built without code generation) refuses `new Function` with an EvalError. */
function isEvalRefusal(error: unknown): boolean {
  return error instanceof EvalError || (error as { name?: unknown } | null)?.name === 'EvalError';
}
