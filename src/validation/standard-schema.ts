// Standard Schema (https://standardschema.dev): the interface zod 4, valibot, arktype and
// others implement. Its types are copied here, as the spec asks, rather than depended on.
import { InvalidToolError } from '../errors/invalid-tool-error.js';
import { jsonPointer } from './problem.js';
import type { ParametersSchema } from '../core/types.js';
import { errorMessage } from '../errors/error-message.js';
import { isAmbiError } from '../errors/ambi-error.js';
import type { ArgsCheck } from './types.js';

/** A schema of any Standard Schema library: `~standard.validate` checks (and may transform) a value. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

export declare namespace StandardSchemaV1 {
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown, options?: Options) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
    /** Standard JSON Schema (zod >= 4.2 and others): how the schema describes itself as JSON Schema. */
    readonly jsonSchema?: StandardJSONSchemaConverter | undefined;
  }
  interface Options {
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  type Result<Output> = SuccessResult<Output> | FailureResult;
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  interface PathSegment {
    readonly key: PropertyKey;
  }
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['input'];
  type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['output'];
}

/** The Standard JSON Schema converter (`~standard.jsonSchema`). */
export interface StandardJSONSchemaConverter {
  readonly input: (options: { readonly target: string; readonly libraryOptions?: Record<string, unknown> }) => Record<string, unknown>;
  readonly output: (options: { readonly target: string; readonly libraryOptions?: Record<string, unknown> }) => Record<string, unknown>;
}

/** True for a Standard Schema object (zod 4, valibot, arktype, ...), as opposed to a JSON Schema. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const props = (value as { '~standard'?: { validate?: unknown } } | null)?.['~standard'];
  return typeof props === 'object' && props !== null && typeof props.validate === 'function';
}

/**
 * The JSON Schema the model is told, for a Standard Schema: the schema's own converter
 * (Standard JSON Schema, else zod's `toJSONSchema`), draft-07 (what the validators read), for the
 * schema's INPUT type: what the model must send, before transforms and defaults.
 */
export function toParametersSchema(toolName: string, schema: StandardSchemaV1): ParametersSchema {
  const props = schema['~standard'];
  const zodLike = schema as { toJSONSchema?: (params: Record<string, unknown>) => Record<string, unknown> };
  let converted: Record<string, unknown>;
  try {
    if (props.jsonSchema) converted = props.jsonSchema.input({ target: 'draft-07' });
    else if (props.vendor === 'zod' && typeof zodLike.toJSONSchema === 'function') converted = zodLike.toJSONSchema({ target: 'draft-07', io: 'input' });
    else throw new Error(`a ${props.vendor} schema has no JSON Schema converter`);
  } catch (error) {
    const detail = errorMessage(error);
    throw new InvalidToolError(toolName, `parameters could not be turned into JSON Schema (${detail}); pass \`jsonSchema\` as well`);
  }
  const { $schema: _, ...parameters } = converted;
  return parameters as ParametersSchema;
}

/**
 * Validate `value` with the schema's own `~standard.validate` (transforms and refinements
 * apply). Issues become `/path message` lines, the path a JSON pointer as for JSON Schema
 * problems (`arguments` for the whole value) and the message the library's own.
 */
export async function validateStandard(schema: StandardSchemaV1, value: unknown): Promise<ArgsCheck> {
  let result: StandardSchemaV1.Result<unknown>;
  try {
    result = await schema['~standard'].validate(value);
  } catch (error) {
    // A coded error is a check that could not be made (a page gone, say): it keeps its code, as any validator's does (call/validate.ts).
    if (isAmbiError(error)) throw error;
    return { ok: false, problems: [`arguments could not be validated: ${errorMessage(error)}`] };
  }
  if (!result.issues) return { ok: true, value: result.value };
  return { ok: false, problems: result.issues.map(describeIssue) };
}

/** One Standard Schema issue, written as a JSON Schema problem is: where, then what. */
export function describeIssue(issue: StandardSchemaV1.Issue): string {
  const path = (issue.path ?? []).map((segment) => (typeof segment === 'object' && segment !== null ? segment.key : segment));
  return `${path.length === 0 ? 'arguments' : jsonPointer(path)} ${issue.message}`;
}
