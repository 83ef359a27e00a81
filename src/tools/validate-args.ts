import Ajv, { type ErrorObject } from 'ajv';

/** A compiled check of one tool's arguments. Returns defaults filled in on success. */
export type ArgsValidator = (value: unknown) => { ok: true; value: unknown } | { ok: false; problems: string[] };

// One Ajv per realm: compiled validators are cached on it and in `compiled` below.
let ajv: Ajv | undefined;
const compiled = new WeakMap<object, ArgsValidator>();

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
  });
  return ajv;
}

/**
 * Compile (once per schema object in this realm) the validator of a tool's arguments.
 * Throws an Error naming the problem when the schema itself is invalid.
 */
export function compileArgsValidator(schema: object): ArgsValidator {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const check = sharedAjv().compile(schema);
  const validator: ArgsValidator = (value) => {
    // Validate a copy: useDefaults writes into the value it checks.
    let copy: unknown;
    try {
      copy = structuredClone(value);
    } catch {
      return { ok: false, problems: ['arguments must be plain JSON'] };
    }
    if (check(copy)) return { ok: true, value: copy };
    return { ok: false, problems: (check.errors ?? []).map(describeProblem) };
  };
  compiled.set(schema, validator);
  return validator;
}

/** One validation problem, written for the model: where, and what was expected. */
export function describeProblem(error: ErrorObject): string {
  const where = error.instancePath === '' ? 'arguments' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  let what = error.message ?? `failed "${error.keyword}"`;
  if (error.keyword === 'additionalProperties') what += ` ('${String(params.additionalProperty)}')`;
  if (error.keyword === 'enum') what += `: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'const') what += `: ${JSON.stringify(params.allowedValue)}`;
  return `${where} ${what}`;
}
