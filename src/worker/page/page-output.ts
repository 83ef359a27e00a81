import { isStandardSchema, toParametersSchema, validateStandard, type StandardSchemaV1 } from '../../validation/standard-schema.js';
import { InvalidOptionError } from '../../errors/invalid-option-error.js';
import { errorMessage } from '../../errors/error-message.js';
import type { RunEvent } from '../../core/run.js';

type RunFinished = Extract<RunEvent, { type: 'run_finished' }>;

/**
 * A run's `output` as it crosses to the runner worker: a JSON Schema as is; a Standard Schema
 * (its code cannot be cloned) as the JSON Schema of its input, converted here on the page, with
 * the schema itself kept here to parse the final answer (see `finishOnPage`).
 */
export function wireOutput(output: unknown): { schema: Record<string, unknown>; standard?: StandardSchemaV1 } | undefined {
  if (output === undefined) return undefined;
  if (!isStandardSchema(output)) {
    if (typeof output !== 'object' || output === null || Array.isArray(output))
      throw new InvalidOptionError('output', 'must be a JSON Schema object or a Standard Schema');
    return { schema: output as Record<string, unknown> };
  }
  try {
    return { schema: toParametersSchema('output', output) as Record<string, unknown>, standard: output };
  } catch (error) {
    throw new InvalidOptionError('output', `a ${output['~standard'].vendor} schema that could not be turned into JSON Schema (${errorMessage(error)})`);
  }
}

/**
 * The end of a run with a Standard Schema output, on the page: the worker held the answer to the
 * schema's JSON Schema (with retries); here the schema's own `validate` parses it (transforms,
 * defaults, refinements). A refinement JSON Schema cannot express that fails here is not retried:
 * the run fails with `invalid_output`.
 */
export async function finishOnPage(schema: StandardSchemaV1, event: RunFinished): Promise<RunEvent> {
  const checked = await validateStandard(schema, event.result.output);
  if (checked.ok) return { ...event, result: { ...event.result, output: checked.value } };
  const problems = checked.problems.map((problem) => problem.replace(/^arguments\b/, 'the answer'));
  return { type: 'run_failed', error: { code: 'invalid_output', message: `The answer does not match the output schema: ${problems.join('; ')}` } };
}
