import { validate } from '@cfworker/json-schema';
import { DRAFT_07_META_SCHEMA } from './no-eval/draft-07-meta-schema.js';
import { jsonView } from './json-view.js';
import { problemsOf } from './no-eval/no-eval-problems.js';
import { checkStrictSchema, prepareSchema, type PreparedSchema } from './no-eval/no-eval-schema.js';
import { checkRefCycles } from './ref-cycles.js';
import { unknownTypes } from './unknown-types.js';

const checked = new WeakMap<object, PreparedSchema>();
let metaSchema: PreparedSchema | undefined;

/**
 * Check a tool's JSON Schema as our ajv would refuse it (against the draft-07 meta-schema,
 * then ajv's strict-mode rules, then `$ref` loops no validator could finish), without compiling anything: no eval, in any mode, so a
 * registry can check a schema before its validation mode is known. Once per schema object
 * in this realm; returns the schema prepared for the no-eval validator. Throws an Error
 * naming the problem.
 */
export function checkSchema(schema: object): PreparedSchema {
  const cached = checked.get(schema);
  if (cached) return cached;
  checkAgainstMetaSchema(schema);
  const prepared = prepareSchema(schema);
  checkStrictSchema(prepared);
  checkRefCycles(prepared);
  checked.set(schema, prepared);
  return prepared;
}

function checkAgainstMetaSchema(schema: object): void {
  metaSchema ??= prepareSchema(DRAFT_07_META_SCHEMA);
  const data = jsonView(schema);
  const result = validate(data, metaSchema.root, '2019-09', metaSchema.lookup, false);
  if (result.valid) return;
  const problems = problemsOf(result.errors, metaSchema, data);
  // A `type` that is not one of JSON Schema's: said in a word, instead of the meta-schema's three complaints about it.
  const types = unknownTypes(schema, problems);
  const others = problems.filter((p) => !types.some((t) => p.instancePath === t.path || p.instancePath.startsWith(`${t.path}/`)));
  throw new Error(`schema is invalid: ${[...types.map((t) => t.message), ...others.map((p) => `data${p.instancePath} ${p.message}`)].join(', ')}`);
}
