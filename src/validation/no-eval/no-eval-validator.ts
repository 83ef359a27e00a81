import { validate } from '@cfworker/json-schema';
import { checkSchema } from '../check-schema.js';
import { copyArgs } from '../copy-args.js';
import { jsonView } from '../json-view.js';
import { problemsOf } from './no-eval-problems.js';
import { describeProblem } from '../problem.js';
import { applyDefaults, planDefaults } from './schema-defaults.js';
import type { JsonArgsValidator } from '../types.js';

const compiled = new WeakMap<object, JsonArgsValidator>();

/**
 * The validator of a tool's arguments that never evaluates code (`@cfworker/json-schema`
 * interprets the schema), for pages and workers whose CSP forbids eval. It decides,
 * fills defaults and words its problems as our ajv does (see no-eval-problems.ts). The
 * schema is checked first, as ajv would (check-schema.ts). Built once per schema object
 * in this realm.
 */
export function compileNoEvalValidator(schema: object): JsonArgsValidator {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const prepared = checkSchema(schema);
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

const asIs = (value: unknown): unknown => value;
