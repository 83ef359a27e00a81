// The types of a run's typed answer (`run(input, { output })`), which RunOptions and RunResult speak in.
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { StandardSchemaV1 } from '../validation/standard-schema.js';

/** A JSON Schema for a run's final answer (any JSON value: an object, an array, a string...). */
export type JsonOutputSchema = Exclude<JSONSchema, boolean>;

/** What `run(input, { output })` takes: a JSON Schema, or a Standard Schema (zod 4, valibot, arktype...); a schema typed only as an object gives an `unknown` output. */
export type OutputSchema = JsonOutputSchema | StandardSchemaV1 | Readonly<Record<string, unknown>>;

/** The value a run's `output` schema gives: a Standard Schema's output type (after transforms), a literal JSON Schema's type, else `unknown`. */
export type OutputOf<S> = S extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<S>
  : S extends JsonOutputSchema
    ? JSONSchema extends S
      ? unknown
      : FromSchema<S>
    : unknown;
