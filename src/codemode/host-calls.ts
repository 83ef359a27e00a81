import type { JsonValue } from '../core/types.js';
import { errorMessage } from '../errors/error-message.js';
import type { CallAnswer } from './protocol.js';
import { isOpaqueValue, type ProgramTools } from './types.js';

/**
 * One call of the program answered by the host's `tools.call`: the arguments parsed from the
 * guest's JSON, the output written back as JSON (or as an opaque value's ref), a failure as its
 * code and message. Never rejects: whatever the host does becomes an answer the program can catch.
 */
export async function answerCall(tools: ProgramTools, name: string, args: string, index: number, signal: AbortSignal): Promise<CallAnswer> {
  let output: unknown;
  try {
    output = await tools.call(name, JSON.parse(args) as JsonValue, { index, signal });
  } catch (error) {
    return { ok: false, code: codeOf(error), message: errorMessage(error) };
  }
  try {
    if (isOpaqueValue(output)) return { ok: true, opaque: { ref: jsonText(output.ref), label: String(output.label) } };
    return { ok: true, json: jsonText(output) };
  } catch (error) {
    return { ok: false, code: 'invalid_output', message: `The output of tools[${JSON.stringify(name)}] is not JSON: ${errorMessage(error)}` };
  }
}

/** JSON text of `value` (`null` for undefined); throws for what JSON cannot hold (a cycle, a BigInt). */
function jsonText(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/** An error's own `code` when it is a non-empty string, else `tool_error`. */
function codeOf(error: unknown): string {
  try {
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    return typeof code === 'string' && code !== '' ? code : 'tool_error';
  } catch {
    return 'tool_error';
  }
}
