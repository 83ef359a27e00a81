import * as Comlink from 'comlink';
import { AmbiError } from '../errors/ambi-error.js';
import { NotJsonError, toJsonOutput } from '../tools/json-output.js';
import type { JsonValue, Tool } from '../tools/types.js';
import type { ToolInvoker, WireContext } from './protocol.js';

/** Run a tool in this realm for a caller across a boundary; outputs are checked here, as in-process. */
export async function callHere(tool: Tool, args: unknown, ctx: WireContext, signal: AbortSignal): Promise<JsonValue> {
  const output = await tool.call(args, { ...ctx, signal });
  try {
    return toJsonOutput(output);
  } catch (error) {
    if (!(error instanceof NotJsonError)) throw error;
    throw new AmbiError('crashed', `Tool "${tool.name}" returned an output that is not JSON: ${error.message}`);
  }
}

/** Decide a tool's approval rule in this realm. */
export async function askHere(tool: Tool, args: unknown): Promise<boolean> {
  const rule = tool.needsApproval;
  return typeof rule === 'function' ? Boolean(await rule(args)) : Boolean(rule);
}

/** A Comlink proxy through which the runner worker calls a tool that stays on the page. */
export function pageInvoker(tool: Tool): ToolInvoker {
  return Comlink.proxy({
    call: (args: unknown, ctx: WireContext, signal: AbortSignal) => callHere(tool, args, ctx, signal),
    needsApproval: (args: unknown) => askHere(tool, args),
  });
}
