import { isStandardSchema, toParametersSchema, type StandardSchemaV1 } from '../../validation/standard-schema.js';
import { InvalidOptionError } from '../../errors/invalid-option-error.js';
import { errorMessage } from '../../errors/error-message.js';
import type { RunEvent } from '../../core/run.js';
import type { OutputCheck } from '../wire/protocol.js';

type RunFinished = Extract<RunEvent, { type: 'run_finished' }>;

/**
 * A run's `output` as it crosses to the runner worker: a JSON Schema as is; a Standard Schema
 * (its code cannot be cloned) as the JSON Schema of its input, converted here on the page, with the
 * schema itself kept here, where the worker asks it about each answer (see PageOutput).
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
 * The page's end of a run whose `output` is a Standard Schema: the runner worker's typed-answer
 * extension asks it about each answer (`validate`, over Comlink), so the schema parses every answer
 * where it lives, once, refinements and transforms included, and a wrong one is asked again as
 * any is. The parsed value never crosses: the run's result gets it here (`finished`).
 */
export class PageOutput implements OutputCheck {
  #parsed: { value: unknown } | undefined;

  constructor(readonly schema: StandardSchemaV1) {}

  async validate(value: unknown): Promise<{ issues?: Array<{ message: string; path?: Array<string | number> }> }> {
    let result: StandardSchemaV1.Result<unknown>;
    try {
      result = await this.schema['~standard'].validate(value);
    } catch (error) {
      return { issues: [{ message: `could not be validated: ${errorMessage(error)}` }] };
    }
    if (!result.issues) {
      this.#parsed = { value: result.value };
      return {};
    }
    // What crosses back is plain: a message and a path of keys (a symbol key is named).
    return {
      issues: result.issues.map((issue) => ({
        message: String(issue.message),
        path: (issue.path ?? []).map((segment) => {
          const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
          return typeof key === 'number' ? key : String(key);
        }),
      })),
    };
  }

  /** The run's last event with the answer's parsed value as its output (the one the schema accepted last). */
  finished(event: RunFinished): RunFinished {
    return this.#parsed ? { ...event, result: { ...event.result, output: this.#parsed.value } } : event;
  }
}
