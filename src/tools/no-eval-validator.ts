import { validate } from '@cfworker/json-schema';
import { copyArgs } from './copy-args.js';
import { DRAFT_07_META_SCHEMA } from './draft-07-meta-schema.js';
import { problemsOf } from './no-eval-problems.js';
import { checkStrictSchema, prepareSchema, type PreparedSchema } from './no-eval-schema.js';
import { describeProblem } from './problem.js';
import { applyDefaults, planDefaults } from './schema-defaults.js';
import type { JsonArgsValidator } from './validate-args.js';

const compiled = new WeakMap<object, JsonArgsValidator>();
let metaSchema: PreparedSchema | undefined;

/**
 * The validator of a tool's arguments that never evaluates code (`@cfworker/json-schema`
 * interprets the schema), for pages and workers whose CSP forbids eval. It decides,
 * fills defaults and words its problems as our ajv does (see no-eval-problems.ts). The
 * schema is checked first, as ajv would: against the draft-07 meta-schema, then ajv's
 * strict-mode rules. Built once per schema object in this realm.
 */
export function compileNoEvalValidator(schema: object): JsonArgsValidator {
  const cached = compiled.get(schema);
  if (cached) return cached;
  checkAgainstMetaSchema(schema);
  const prepared = prepareSchema(schema);
  checkStrictSchema(prepared);
  const defaults = planDefaults(schema, prepared);
  // A value that is JSON (an owned one was just parsed from JSON text) stays JSON when the
  // defaults filled into it are, so cfworker may read it as it is.
  const defaultsAreJson = defaults?.json ?? true;
  const validator: JsonArgsValidator = (value, owned = false) => {
    let copy: unknown;
    let data: unknown;
    try {
      // Defaults are written into a copy, which the tool gets; a value nobody else holds needs none.
      let json = true;
      if (owned) copy = value;
      else ({ copy, json } = copyArgs(value));
      const view = json && defaultsAreJson ? asIs : jsonView;
      if (defaults) applyDefaults(defaults, copy, view);
      data = view(copy);
    } catch {
      return { ok: false, problems: ['arguments must be plain JSON'] };
    }
    const result = validate(data, prepared.root, '2019-09', prepared.lookup, false);
    if (result.valid) return { ok: true, value: copy };
    const problems = problemsOf(result.errors, prepared, data).map(describeProblem);
    return { ok: false, problems: problems.length > 0 ? problems : ['arguments do not match the schema'] };
  };
  compiled.set(schema, validator);
  return validator;
}

function checkAgainstMetaSchema(schema: object): void {
  metaSchema ??= prepareSchema(DRAFT_07_META_SCHEMA);
  const data = jsonView(schema);
  const result = validate(data, metaSchema.root, '2019-09', metaSchema.lookup, false);
  if (result.valid) return;
  const problems = problemsOf(result.errors, metaSchema, data);
  throw new Error(`schema is invalid: ${problems.map((p) => `data${p.instancePath} ${p.message}`).join(', ')}`);
}

const asIs = (value: unknown): unknown => value;

/**
 * The data as cfworker must see it: JSON only. An `undefined` property is absent (as ajv
 * treats it), an `undefined` item is null; a BigInt, symbol or function throws.
 */
function jsonView(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : jsonView(item)));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) Object.defineProperty(out, key, { value: jsonView(item), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (typeof value === 'bigint' || typeof value === 'symbol' || typeof value === 'function') throw new TypeError('not JSON');
  return value;
}
