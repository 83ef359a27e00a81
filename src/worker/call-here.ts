import { AmbiError } from '../errors/ambi-error.js';
import { invalidArgumentsMessage } from '../tools/decode-args.js';
import { NotJsonError, toJsonOutput } from '../tools/json-output.js';
import { validateStandard, type StandardCheck } from '../tools/standard-schema.js';
import type { JsonValue, Tool } from '../tools/types.js';
import type { WireContext } from './protocol.js';

/**
 * Run a tool in this realm for a caller across a boundary; outputs are checked here, as
 * in-process. The caller validated the arguments with the JSON Schema; a tool defined
 * with a Standard Schema (zod, ...) validates them again here with it, so its
 * refinements and transforms apply, and refused arguments never reach `call`.
 */
export async function callHere(tool: Tool, args: unknown, ctx: WireContext, signal: AbortSignal): Promise<JsonValue> {
  const checked = await checkHere(tool, args);
  if (!checked.ok) throw new AmbiError('invalid_arguments', invalidArgumentsMessage(tool.name, checked.problems));
  const output = await tool.call(checked.value, { ...ctx, signal });
  try {
    return toJsonOutput(output);
  } catch (error) {
    if (!(error instanceof NotJsonError)) throw error;
    throw new AmbiError('crashed', `Tool "${tool.name}" returned an output that is not JSON: ${error.message}`);
  }
}

/** Decide a tool's approval rule in this realm (on the Standard Schema's output; arguments it refuses fail later, unapproved). */
export async function askHere(tool: Tool, args: unknown): Promise<boolean> {
  const rule = tool.needsApproval;
  if (typeof rule !== 'function') return Boolean(rule);
  const checked = await checkHere(tool, args);
  return checked.ok ? Boolean(await rule(checked.value)) : false;
}

function checkHere(tool: Tool, args: unknown): Promise<StandardCheck> | StandardCheck {
  return tool.standardSchema ? validateStandard(tool.standardSchema, args) : { ok: true, value: args };
}
