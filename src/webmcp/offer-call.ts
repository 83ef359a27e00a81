import { AmbiError } from '../errors/ambi-error.js';
import type { AmbiErrorCode } from '../core/codes.js';
import { type CallableTools, executeCall } from '../call/execute.js';
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
 * The `execute` that the browser calls for one offered tool: the call pipeline outside a run
 * (src/call/execute.ts: decode, validate, the tool's rule with `approve` where it asks, then the
 * attempts under the tool's timeout and retries). A failure throws an AmbiError whose message
 * starts with its code (`invalid_arguments: …`), the one text a WebMCP caller can read of it.
 */
export function offeredExecute(registry: CallableTools, name: string, withdrawn: AbortSignal, approve: WebMcpApprove | undefined) {
  // Tools that ask are offered only with an `approve`: its absence here would be a bug, and says no.
  const decide: WebMcpApprove = approve ?? (() => false);
  return async (input: Record<string, unknown>, client?: WebMcpClient): Promise<JsonValue> => {
    const signal = client?.signal instanceof AbortSignal ? AbortSignal.any([client.signal, withdrawn]) : withdrawn;
    const call = { id: crypto.randomUUID(), name, arguments: input };
    const result = await executeCall(registry, call, { signal, idempotencyKey: newIdempotencyKey(), approve: decide });
    if (result.ok) return result.output;
    throw new AmbiError(result.error.code as AmbiErrorCode, `${result.error.code}: ${result.error.message}`);
  };
}
