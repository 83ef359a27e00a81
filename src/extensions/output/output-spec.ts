import { isAmbiError } from '../../errors/ambi-error.js';
import { InvalidOptionError } from '../../errors/invalid-option-error.js';
import { errorMessage } from '../../errors/error-message.js';
import { parsed, type OutputCheck } from './answer-check.js';
import { describeIssue, isStandardSchema, type StandardSchemaV1, toParametersSchema } from '../../validation/standard-schema.js';
import type { ArgsCheck, ValidationMode } from '../../validation/types.js';
import { compileArgsValidator } from '../../validation/validate-args.js';
import type { JsonArgsValidator } from '../../validation/types.js';

export type { OutputCheck } from './answer-check.js';

/** A run's output schema, ready: the JSON Schema the model is shown, and the check of an answer. */
export interface OutputSpec {
  /** A JSON Schema (a Standard Schema's input type, converted): what the model must write, and what crosses to a worker. */
  readonly schema: Record<string, unknown>;
  /** The answer's value, or its problems; rejects (coded) where the answer could not be checked at all. */
  check(text: string): Promise<OutputCheck>;
}

// Compiled once per schema object and mode in this realm, as a tool's validator is, never per run.
const compiled = new WeakMap<object, Map<ValidationMode, JsonArgsValidator>>();

/** Make `output` ready for a run; throws InvalidOptionError (`output`) for something that is not a schema, or a JSON Schema that does not compile. */
export function outputSpec(output: unknown, validation: ValidationMode): OutputSpec {
  if (isStandardSchema(output)) {
    let schema: Record<string, unknown>;
    try {
      schema = toParametersSchema('output', output) as Record<string, unknown>;
    } catch (error) {
      throw new InvalidOptionError('output', `a ${output['~standard'].vendor} schema that could not be turned into JSON Schema (${errorMessage(error)})`);
    }
    return { schema, check: async (text) => parsed(text, (value) => standardCheck(output, value)) };
  }
  if (typeof output !== 'object' || output === null || Array.isArray(output)) {
    throw new InvalidOptionError(
      'output',
      `must be a JSON Schema object or a Standard Schema (got ${output === null ? 'null' : Array.isArray(output) ? 'an array' : `a ${typeof output}`})`,
    );
  }
  const validate = jsonValidator(output, validation);
  return { schema: output as Record<string, unknown>, check: async (text) => parsed(text, (value) => validate(value, true)) };
}

/**
 * An answer checked by a Standard Schema. Its issues, or a validate that throws an error of its
 * own, are the answer's problems (another answer may pass). A coded AmbiError is not: the check
 * could not be made (the page that held the schema went away: `tab_gone`, see remoteOutput), and
 * whatever the model writes next cannot be checked either, so it is thrown, for the run to end.
 */
async function standardCheck(schema: StandardSchemaV1, value: unknown): Promise<ArgsCheck> {
  let result: StandardSchemaV1.Result<unknown>;
  try {
    result = await schema['~standard'].validate(value);
  } catch (error) {
    if (isAmbiError(error)) throw error;
    return { ok: false, problems: [`the answer could not be validated: ${errorMessage(error)}`] };
  }
  return result.issues ? { ok: false, problems: result.issues.map(describeIssue) } : { ok: true, value: result.value };
}

function jsonValidator(schema: object, validation: ValidationMode): JsonArgsValidator {
  const byMode = compiled.get(schema) ?? new Map<ValidationMode, JsonArgsValidator>();
  compiled.set(schema, byMode);
  let validate = byMode.get(validation);
  if (!validate) {
    try {
      validate = compileArgsValidator(schema, validation);
    } catch (error) {
      throw new InvalidOptionError('output', `is not a valid JSON Schema: ${errorMessage(error)}`);
    }
    byMode.set(validation, validate);
  }
  return validate;
}

/** The system prompt's part about the answer: it is read by a program, so only JSON of this schema. */
export function outputInstructions(schema: Record<string, unknown>): string {
  return `When you give your final answer (after any tool calls you need), reply with only a JSON value that matches this JSON Schema, with no other text:\n${JSON.stringify(schema)}`;
}
