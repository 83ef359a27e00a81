import { DEFAULT_POLICY } from './policy.js';
import { isStandardSchema, toParametersSchema, type StandardSchemaV1 } from '../validation/standard-schema.js';
import type { AfterUntrusted, ApprovalRule, ArgsOf, HeldArguments, Quarantine, Tool, ToolContext } from './types.js';
import type { ParametersSchema } from '../core/types.js';
import type { EffectsOrJsonRule } from './json-compatible.js';

/** What `defineTool` takes: a definition, a policy (defaults filled in) and the call itself. */
export type ToolSpec<S extends ParametersSchema | StandardSchemaV1, Output> = ToolSpecBase<S, Output> & ToolEffects;

/**
 * Whether running a call twice is harmless. `idempotent` is required, unless `readOnly: true`
 * (the tool changes nothing) says so; `readOnly: true, idempotent: false` is `invalid_tool`.
 * The member that requires `idempotent` comes last: TypeScript explains a spec that fits
 * neither member by the last one, so forgetting it reads "Property 'idempotent' is missing"
 * (tests/node/define-tool-errors.test.ts holds that message).
 */
export type ToolEffects = { readOnly: true; idempotent?: boolean } | { idempotent: boolean; readOnly?: boolean };

/** The part of a ToolSpec that does not say what the tool changes. */
export interface ToolSpecBase<S extends ParametersSchema | StandardSchemaV1, Output> {
  name: string;
  description: string;
  /** A JSON Schema object schema (typed when literal), or a Standard Schema such as `z.object({...})`. */
  parameters: S;
  /**
   * For a Standard Schema `parameters`: the JSON Schema the model is told. Default: the
   * schema's own conversion (Standard JSON Schema, or zod's `toJSONSchema`).
   */
  jsonSchema?: S extends StandardSchemaV1 ? ParametersSchema : never;
  /** Per attempt; default 15 000. */
  timeoutMs?: number;
  /** Retries after a timeout, idempotent tools only; default 3. */
  maxRetries?: number;
  /** Default 500. */
  retryDelayMs?: number;
  /** Ask a person before running: `true`, or a rule of the arguments (anything truthy asks; a rule that throws asks too). */
  needsApproval?: boolean | ApprovalRule<ArgsOf<S>>;
  /** What the tool returns may hold words from someone other than the person using the app (default false). */
  untrusted?: boolean;
  /** A call proposed after the model read untrusted content: `allow`, `ask` (default unless readOnly) or `refuse`. */
  afterUntrusted?: AfterUntrusted;
  /**
   * Who wrote this definition, when not the app (a partner's tool the app passes on, say): a
   * request that offers it is exposed, naming this. See `Tool.untrustedDefinition`.
   */
  untrustedDefinition?: string;
  /**
   * Read the output in quarantine: a separate request, with no tools and no conversation, turns it
   * into a value of `output` (a JSON Schema), which the model then reads instead. Implies `untrusted`.
   */
  quarantine?: Quarantine;
  /** In `untrusted: 'hold'` mode: per top-level argument, what a call carrying a held value there does (`allow`, `ask`, `refuse`). */
  heldArguments?: { [K in keyof ArgsOf<S> & string]?: AfterUntrusted } & HeldArguments;
  /** `'plain'`: the output never repeats the arguments, so it is not held when they were. */
  heldOutput?: 'plain';
  call(args: ArgsOf<S>, ctx: ToolContext): Output | Promise<Output>;
}

/**
 * Define a tool; its arguments are typed from a literal `parameters` schema, or from a
 * Standard Schema's output type. Nothing is checked or compiled here: the check happens at
 * registration, the compile when a call first needs it, in the realm that validates calls.
 * A Standard Schema is turned into the JSON Schema the model reads here, and kept as
 * `standardSchema` for validation. The output must be a JSON value (see `IsJsonCompatible`): a
 * tool returning a `Map` does not compile.
 *
 * @example
 * ```ts
 * import { defineTool } from 'ambi-web/worker';
 *
 * const add = defineTool({
 *   name: 'add',
 *   description: 'Add two numbers',
 *   parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
 *   idempotent: true, // required (unless readOnly: true): whether a retry is safe
 *   call: ({ a, b }) => a + b, // a and b are numbers, typed from the schema
 * });
 * console.log(add.name, add.timeoutMs); // 'add', 15000
 * ```
 */
export function defineTool<const S extends ParametersSchema | StandardSchemaV1, Output>(
  spec: ToolSpecBase<S, Output> & EffectsOrJsonRule<ToolEffects, Output>,
): Tool<ArgsOf<S>, Output> {
  const { jsonSchema, parameters, ...rest } = spec;
  const policy = {
    timeoutMs: spec.timeoutMs ?? DEFAULT_POLICY.timeoutMs,
    maxRetries: spec.maxRetries ?? DEFAULT_POLICY.maxRetries,
    retryDelayMs: spec.retryDelayMs ?? DEFAULT_POLICY.retryDelayMs,
    // A tool that changes nothing is safe to run twice (a JavaScript caller may leave `idempotent` out).
    ...(spec.idempotent === undefined && spec.readOnly === true ? { idempotent: true } : {}),
  };
  if (!isStandardSchema(parameters)) return { ...rest, parameters: parameters as ParametersSchema, ...policy } as Tool<ArgsOf<S>, Output>;
  return {
    ...rest,
    parameters: jsonSchema ?? toParametersSchema(spec.name, parameters),
    standardSchema: parameters as StandardSchemaV1<unknown, ArgsOf<S>>,
    ...policy,
  } as Tool<ArgsOf<S>, Output>;
}
