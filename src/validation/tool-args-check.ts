import { compileArgsValidator, loadAjv } from './validate-args.js';
import type { JsonArgsValidator, ValidationMode } from './types.js';

/** How many calls of a tool the validator that interprets its schema checks, in `auto` mode, before ajv's compiled one takes over. */
export const CALLS_BEFORE_COMPILING = 100;

/**
 * The check of one tool's arguments against its JSON Schema, in `mode`. Its first calls are
 * checked by the validator that interprets the schema (no eval; its code is in every realm), built
 * when the first call needs it: so a first answer never waits for ajv's compiler (35 KB gzip to
 * load, tens of milliseconds to warm up). In `auto` mode, the call after CALLS_BEFORE_COMPILING
 * starts compiling the schema with ajv in the background (loading ajv into the realm the first
 * time), and the calls after that are checked by ajv's validator, about ten times faster. Both
 * decide, fill defaults and word problems alike, so which one checked a call shows only in its
 * speed: a realm that refuses eval, or ajv refusing the schema, leaves the tool on the first.
 * `invalid` words a schema that cannot be built as the tool's error.
 */
export function toolArgsCheck(schema: object, mode: ValidationMode, invalid: (error: unknown) => Error): JsonArgsValidator {
  let validate: JsonArgsValidator | undefined;
  let calls = 0;
  const compile = async () => {
    await loadAjv();
    const compiled = compileArgsValidator(schema, 'auto');
    validate = compiled;
  };
  return (value, owned) => {
    if (mode === 'auto' && ++calls === CALLS_BEFORE_COMPILING) compile().catch(() => {});
    if (!validate) {
      try {
        validate = compileArgsValidator(schema, 'no-eval');
      } catch (error) {
        throw invalid(error);
      }
    }
    return validate(value, owned);
  };
}
