import { AmbiError } from '../errors/ambi-error.js';
import type { AmbiErrorCode } from '../core/codes.js';
import { errorMessage } from '../errors/error-message.js';
import { onAbort } from '../util/abort-source.js';
import { ruleAsks } from '../call/approval-rule.js';
import { runAttempts } from '../call/attempt.js';
import { checkArguments } from '../call/validate.js';
import type { RegisteredTool } from '../tools/registry.js';
import { newIdempotencyKey } from '../util/ids.js';
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
  return async (input: Record<string, unknown>, client?: WebMcpClient): Promise<JsonValue> => {
    const started = performance.now();
    const signal = client?.signal instanceof AbortSignal ? AbortSignal.any([client.signal, withdrawn]) : withdrawn;
    const call = { id: crypto.randomUUID(), name, arguments: input };
    const checked = await checkArguments(name, input, entry.validate);
    if (!checked.ok) throw failure(checked.code ?? 'invalid_arguments', checked.message);
    // The runner's rule of what asks: anything truthy, or a rule that throws.
    if (await ruleAsks(entry.tool, checked.value, signal)) await approved(name, checked.value, approve, signal);
    const result = await runAttempts(entry.tool, call, checked.value, { signal, idempotencyKey: newIdempotencyKey() }, started);
    if (result.ok) return result.output;
    throw failure(result.error.code, result.error.message);
  };
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
