import { compileAjvValidator } from './ajv-validator.js';
import { compileNoEvalValidator } from './no-eval-validator.js';
import type { ValidationMode } from './types.js';

/** The outcome of checking one call's arguments: the value to call with (defaults filled in), or problems. */
export type ArgsCheck = { ok: true; value: unknown } | { ok: false; problems: string[] };

/** A check of one tool's arguments; a Standard Schema's may be asynchronous. */
export type ArgsValidator = (value: unknown) => ArgsCheck | Promise<ArgsCheck>;

/** A compiled JSON Schema check of one tool's arguments. */
export type JsonArgsValidator = (value: unknown) => ArgsCheck;

export const VALIDATION_MODES: readonly ValidationMode[] = ['auto', 'no-eval'];

// Found out once per realm: after the first EvalError, ajv's compiler is never tried again.
let evalRefused = false;

/**
 * Build (once per schema object in this realm and mode) the validator of a tool's
 * arguments. `auto`: ajv's compiled validator, or, where the realm refuses eval, the
 * no-eval one (same decisions, same messages). `no-eval`: never ajv's compiler.
 * Throws an Error naming the problem when the schema itself is invalid.
 */
export function compileArgsValidator(schema: object, validation: ValidationMode = 'auto'): JsonArgsValidator {
  if (validation === 'no-eval' || evalRefused) return compileNoEvalValidator(schema);
  try {
    return compileAjvValidator(schema);
  } catch (error) {
    if (!isEvalRefusal(error)) throw error;
    evalRefused = true;
    return compileNoEvalValidator(schema);
  }
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
