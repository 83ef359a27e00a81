import type { CallTarget } from '../core/types.js';
import type { AmbiErrorCode } from '../core/codes.js';
import { AmbiError } from '../errors/ambi-error.js';
import { toolContext } from '../tools/tool-context.js';
import type { Tool, ToolContext } from '../tools/types.js';
import type { AbortSource } from '../util/abort-source.js';
import { isThenable } from '../util/thenable.js';
import { validateStandard } from '../validation/standard-schema.js';
import type { ArgsValidator } from '../validation/types.js';
import { ruleAsks } from './approval-rule.js';
import { type ServedOutput, toServedOutput } from './served-output.js';
import { validateArguments } from './validate.js';

/**
 * The pipeline's door for a call another realm's pipeline serves here, where the tool's code lives
 * (a page tool or a tool worker's, for the runner worker; a tab's tool, for an extension page).
 * That pipeline took the call through decode, screen, validation, policy, slots and journal, and it
 * times and retries it; here, stage 3 runs again with what only this realm holds (the tool's
 * Standard Schema, its transforms and refinements; a content script's own check), then stage 7's
 * attempt, once, its output made JSON once (the caller's attempt takes it as it is: see served-output.ts).
 * Stage 4's rule and target are decided here the same way, on the arguments as this realm checks them.
 */
export interface ServedTool {
  readonly tool: Tool;
  /** This realm's check of the arguments (the tool's Standard Schema by default), if any. */
  readonly validate: ArgsValidator | undefined;
}

/** A tool as it is served here: checked with `validate`, or with its Standard Schema where it has one. */
export function servedTool(tool: Tool, validate?: ArgsValidator): ServedTool {
  const schema = tool.standardSchema;
  return { tool, validate: validate ?? (schema ? (value) => validateStandard(schema, value) : undefined) };
}

/**
 * One served call: the arguments checked here (refused: `invalid_arguments`, never run), the tool
 * called once with `ctx` and `abort`, its output as JSON, parts beside it (one JSON cannot hold: `crashed`). A tool
 * that answers at once, with nothing to check and no parts, is answered synchronously (one that throws, throws).
 */
export function serveCall(
  served: ServedTool,
  args: unknown,
  ctx: Omit<ToolContext, 'signal' | 'run'>,
  abort: AbortSource,
): ServedOutput | Promise<ServedOutput> {
  const { tool, validate } = served;
  if (!validate) return callOnce(tool, args, ctx, abort);
  return checkHere(served, args).then((checked) => {
    if (!checked.ok) throw new AmbiError((checked.code ?? 'invalid_arguments') as AmbiErrorCode, checked.message);
    return callOnce(tool, checked.value, ctx, abort);
  });
}

/** Stage 4's rule of a served tool, on the arguments as checked here (arguments it refuses are not asked about: the call fails later, unrun). */
export async function serveRule(served: ServedTool, args: unknown, abort: AbortSource): Promise<boolean> {
  const { tool } = served;
  if (typeof tool.needsApproval !== 'function') return Boolean(tool.needsApproval);
  const checked = served.validate ? await checkHere(served, args) : { ok: true as const, value: args };
  return checked.ok ? ruleAsks(tool, checked.value, abort.signal) : false;
}

/** Where a served call acts (`Tool.target`), named on the arguments as checked here; arguments it refuses fail later, unrun. */
export async function serveTarget(served: ServedTool, args: unknown, abort: AbortSource): Promise<CallTarget> {
  const { tool } = served;
  if (!tool.target) throw new AmbiError('internal_error', `Tool "${tool.name}" names no target`);
  const checked = served.validate ? await checkHere(served, args) : { ok: true as const, value: args };
  return tool.target(checked.ok ? checked.value : args, { signal: abort.signal });
}

function checkHere(served: ServedTool, args: unknown) {
  return Promise.resolve(validateArguments(served.tool.name, args, false, served.validate!));
}

/** Stage 7, once: the tool's call, its output as the model will read it. */
function callOnce(tool: Tool, args: unknown, ctx: Omit<ToolContext, 'signal' | 'run'>, abort: AbortSource): ServedOutput | Promise<ServedOutput> {
  const output = tool.call(args, toolContext(ctx, abort));
  return isThenable(output) ? Promise.resolve(output).then((value) => toServedOutput(tool.name, value)) : toServedOutput(tool.name, output);
}
