import Ajv from 'ajv';
import { checkSchema } from '../check-schema.js';
import { copyArgs } from '../copy-args.js';
import { compileNoEvalValidator } from '../no-eval/no-eval-validator.js';
import { describeProblem } from '../problem.js';
import { mayFillDefaults } from '../no-eval/schema-defaults.js';
import { isSchemaNode, subschemas } from '../no-eval/schema-keywords.js';
import type { JsonArgsValidator } from '../types.js';

// One Ajv per realm: compiled validators are cached on it and in `compiled` below.
let ajv: Ajv | undefined;
const compiled = new WeakMap<object, JsonArgsValidator>();

function sharedAjv(): Ajv {
  ajv ??= new Ajv({
    allErrors: true, // the model fixes every problem in one round
    useDefaults: true,
    // Only own properties count (`required: ['toString']` is not met by Object.prototype's).
    ownProperties: true,
    strictSchema: true, // unknown keywords are mistakes (check-schema.ts refuses them at registration)
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
 * Throws an Error naming the problem when the schema itself is invalid (checked first as
 * the no-eval validator checks it, so both refuse the same schemas), and ajv's EvalError
 * where the realm refuses eval (a CSP without 'unsafe-eval'). A schema for which ajv's
 * generated code would read or fill through inherited members is validated by the
 * no-eval validator instead (see readsInherited): same decisions, own data only.
 */
export function compileAjvValidator(schema: object): JsonArgsValidator {
  const cached = compiled.get(schema);
  if (cached) return cached;
  if (readsInherited(checkSchema(schema).root)) {
    const validator = compileNoEvalValidator(schema);
    compiled.set(schema, validator);
    return validator;
  }
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

/**
 * Whether ajv's generated code would go through Object.prototype for this schema, where
 * `ownProperties` does not reach: a property named "__proto__" (ajv drops it from
 * `properties` altogether), a default for a property Object.prototype has (`data.toString
 * === undefined` is false, so ajv fills nothing), a default holding a "__proto__" key (ajv
 * writes defaults as object literals, where that key sets the prototype).
 */
function readsInherited(node: unknown): boolean {
  if (!isSchemaNode(node)) return false;
  if (node.default !== undefined && holdsProtoKey(node.default)) return true;
  if (isSchemaNode(node.properties)) {
    for (const [name, property] of Object.entries(node.properties)) {
      if (name === '__proto__' || (name in Object.prototype && isSchemaNode(property) && property.default !== undefined)) return true;
    }
  }
  for (const [, , sub] of subschemas(node)) if (readsInherited(sub)) return true;
  return false;
}

function holdsProtoKey(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.hasOwn(value, '__proto__') || Object.values(value).some(holdsProtoKey);
}
