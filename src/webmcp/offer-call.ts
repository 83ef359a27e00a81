import { AmbiError } from '../errors/ambi-error.js';
import type { AmbiErrorCode } from '../core/codes.js';
import { errorMessage } from '../errors/error-message.js';
import { onAbort } from '../util/abort-source.js';
import { decodeArgs } from '../validation/decode-args.js';
import type { RegisteredTool, ToolRegistry } from '../tools/registry.js';
import { executeEntry } from '../tools/execute-entry.js';
import type { JsonValue } from '../core/types.js';
import type { WebMcpClient } from './model-context.js';

/** A call of an offered tool, as `approve` sees it: the validated arguments it would run with. */
export interface WebMcpApprovalRequest {
  name: string;
  arguments: unknown;
}

/** Decides whether a call of an approval-gated offered tool may run (a person, typically). */
export type WebMcpApprove = (request: WebMcpApprovalRequest) => boolean | Promise<boolean>;

/**
 * The `execute` that the browser calls for one offered tool: arguments validated, then
 * approval where the tool asks for it, then the ToolManager's run (timeout, retries).
 * A failure throws an AmbiError whose message starts with its code (`invalid_arguments: …`),
 * the one text a WebMCP caller can read of it.
 */
export function offeredExecute(entry: RegisteredTool, withdrawn: AbortSignal, approve: WebMcpApprove | undefined) {
  const { name } = entry.tool;
  // The entry is known, so the ToolManager never asks this for the names of the others.
  const registry = { names: () => [name] } as Pick<ToolRegistry, 'names'> as ToolRegistry;
  return async (input: Record<string, unknown>, client?: WebMcpClient): Promise<JsonValue> => {
    const signal = client?.signal instanceof AbortSignal ? AbortSignal.any([client.signal, withdrawn]) : withdrawn;
    const call = { id: crypto.randomUUID(), name, arguments: input };
    const decoded = await decodeArgs(name, input, entry.validate);
    if (!decoded.ok) throw failure('invalid_arguments', decoded.message);
    if (await asksApproval(entry, decoded.value)) await approved(name, decoded.value, approve, signal);
    const result = await executeEntry(registry, entry, call, decoded, { signal });
    if (result.ok) return result.output;
    throw failure(result.error.code, result.error.message);
  };
}

/** Whether this call needs a decision: `needsApproval` true, or its rule says so for these arguments. */
async function asksApproval(entry: RegisteredTool, args: unknown): Promise<boolean> {
  const rule = entry.tool.needsApproval;
  if (typeof rule !== 'function') return rule === true;
  try {
    return (await rule(args)) === true;
  } catch (error) {
    // A rule that cannot decide does not let the call through.
    throw failure('denied', `The approval rule of "${entry.tool.name}" failed: ${errorMessage(error)}`);
  }
}

/** Resolves if `approve` says yes; otherwise throws `denied` (also when it throws, or the caller gives up first). */
async function approved(name: string, args: unknown, approve: WebMcpApprove | undefined, signal: AbortSignal): Promise<void> {
  // Tools that ask are offered only with an `approve`: its absence here is a bug, and says no.
  if (!approve) throw failure('denied', `"${name}" needs approval and this page has no way to ask`);
  let decision: unknown;
  let unhook = () => {};
  // The caller may give up (or the offer be withdrawn) while a person has not answered yet.
  const givenUp = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    unhook = onAbort(signal, () => reject(signal.reason));
  });
  try {
    decision = await Promise.race([approve({ name, arguments: args }), givenUp]);
  } catch (error) {
    if (signal.aborted) throw failure('aborted', `The call to "${name}" was given up while waiting for approval`);
    throw failure('denied', `Asking for approval of "${name}" failed: ${errorMessage(error)}`);
  } finally {
    unhook();
  }
  if (decision !== true) throw failure('denied', `The user denied this call to "${name}"`);
}

/** The error a WebMCP caller receives: the code first, then what the model would have read. */
function failure(code: string, message: string): AmbiError {
  // A tool result's code (`denied`, `timeout`, …), or a tool's own: the caller reads it from the message too.
  return new AmbiError(code as AmbiErrorCode, `${code}: ${message}`);
}
