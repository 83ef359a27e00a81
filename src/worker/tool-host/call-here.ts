import { AmbiError } from '../../errors/ambi-error.js';
import { ruleAsks } from '../../call/approval-rule.js';
import { invalidArgumentsMessage } from '../../call/decode.js';
import { toWireOutput, type WireOutput } from '../wire/wire-output.js';
import { validateStandard } from '../../validation/standard-schema.js';
import type { ArgsCheck } from '../../validation/types.js';
import { isThenable } from '../../util/thenable.js';
import { toolContext } from '../../tools/tool-context.js';
import type { AbortSource } from '../../util/abort-source.js';
import type { Tool } from '../../tools/types.js';
import type { CallTarget } from '../../core/types.js';
import type { WireContext } from '../wire/protocol.js';

/**
 * Run a tool in this realm for a caller across a boundary; outputs are checked here, as
 * in-process. The caller validated the arguments with the JSON Schema; a tool defined
 * with a Standard Schema (zod, ...) validates them again here with it, so its
 * refinements and transforms apply, and refused arguments never reach `call`. A tool
 * that returns a plain value is answered synchronously (and one that throws, throws).
 */
export function callHere(tool: Tool, args: unknown, ctx: WireContext, abort: AbortSource): WireOutput | Promise<WireOutput> {
  if (tool.standardSchema) return checkThenCall(tool, args, ctx, abort);
  const output = tool.call(args, toolContext(ctx, abort));
  return isThenable(output) ? Promise.resolve(output).then((value) => toWireOutput(tool.name, value)) : toWireOutput(tool.name, output);
}

async function checkThenCall(tool: Tool, args: unknown, ctx: WireContext, abort: AbortSource): Promise<WireOutput> {
  const checked = await checkHere(tool, args);
  if (!checked.ok) throw new AmbiError('invalid_arguments', invalidArgumentsMessage(tool.name, checked.problems));
  return toWireOutput(tool.name, await tool.call(checked.value, toolContext(ctx, abort)));
}

/** Decide a tool's approval rule in this realm (on the Standard Schema's output; arguments it refuses fail later, unapproved), as the runner decides one. */
export async function askHere(tool: Tool, args: unknown, abort: AbortSource): Promise<boolean> {
  if (typeof tool.needsApproval !== 'function') return Boolean(tool.needsApproval);
  const checked = await checkHere(tool, args);
  return checked.ok ? ruleAsks(tool, checked.value, abort.signal) : false;
}

/** Where a call acts (`Tool.target`), named in this realm on the Standard Schema's output; arguments it refuses fail later, unrun. */
export async function targetHere(tool: Tool, args: unknown, abort: AbortSource): Promise<CallTarget> {
  if (!tool.target) throw new AmbiError('internal_error', `Tool "${tool.name}" names no target`);
  const checked = await checkHere(tool, args);
  return tool.target(checked.ok ? checked.value : args, { signal: abort.signal });
}

function checkHere(tool: Tool, args: unknown): Promise<ArgsCheck> | ArgsCheck {
  return tool.standardSchema ? validateStandard(tool.standardSchema, args) : { ok: true, value: args };
}
