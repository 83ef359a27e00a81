import Ajv from 'ajv';
import { copyArgs } from './copy-args.js';
import { compileNoEvalValidator } from './no-eval-validator.js';
import { describeProblem } from './problem.js';
import { mayFillDefaults } from './schema-defaults.js';
import type { JsonArgsValidator } from './validate-args.js';

// One Ajv per realm: compiled validators are cached on it and in `compiled` below.
let ajv: Ajv | undefined;
const compiled = new WeakMap<object, JsonArgsValidator>();

function sharedAjv(): Ajv {
  ajv ??= new Ajv({
    allErrors: true, // the model fixes every problem in one round
    useDefaults: true,
    strictSchema: true, // unknown keywords are mistakes: fail at registration
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
    validateFormats: false, // `format` is a hint for the model, not enforced (no format tables shipped)
    // ajv logs the generated code when compiling throws; the error itself is reported (or,
    // for a CSP's EvalError, handled), so keep the console clean.
    logger: { log: console.log, warn: console.warn, error: () => {} },
  });
  return ajv;
}

/**
 * Compile (once per schema object in this realm) ajv's validator of a tool's arguments.
 * Throws an Error naming the problem when the schema itself is invalid, and ajv's
 * EvalError where the realm refuses eval (a CSP without 'unsafe-eval').
 */
export function compileAjvValidator(schema: object): JsonArgsValidator {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const check = sharedAjv().compile(schema);
  const fillsDefaults = mayFillDefaults(schema);
  const validator: JsonArgsValidator = (value, owned = false) => {
    // Validate a copy: useDefaults writes into the value it checks, and the tool gets it. A value
    // nobody else holds (just parsed from JSON text) that no default will be written into needs none.
    let copy: unknown = value;
    if (!owned || fillsDefaults) {
      try {
        copy = copyArgs(value).copy;
      } catch {
        return { ok: false, problems: ['arguments must be plain JSON'] };
      }
    }
    let valid: boolean;
    try {
      valid = check(copy) as boolean;
    } catch {
      // ajv's deep equality throws on data such as `{"valueOf": ""}` (enum, const, uniqueItems):
      // that call is decided by the no-eval validator, which words problems the same way.
      return compileNoEvalValidator(schema)(value);
    }
    if (valid) return { ok: true, value: copy };
    return { ok: false, problems: (check.errors ?? []).map(describeProblem) };
  };
  compiled.set(schema, validator);
  return validator;
}
