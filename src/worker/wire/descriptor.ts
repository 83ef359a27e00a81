import { fromServedOutput } from '../../call/crossed-output.js';
import type { Tool, ToolContext } from '../../tools/types.js';
import { sourceOf, type AbortSource } from '../../util/abort-source.js';
import type { PageHostApi, ToolDescriptor } from './protocol.js';
import { toWireReason } from './wire-error.js';

/** The plain-data face of a tool, for the realm that validates and times its calls. */
export function toDescriptor(tool: Tool): ToolDescriptor {
  const rule = tool.needsApproval;
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    timeoutMs: tool.timeoutMs,
    maxRetries: tool.maxRetries,
    retryDelayMs: tool.retryDelayMs,
    idempotent: tool.idempotent,
    ...(tool.readOnly !== undefined ? { readOnly: tool.readOnly } : {}),
    approval: typeof rule === 'function' ? 'ask' : rule ? 'always' : 'never',
    ...(tool.target ? { targeted: true as const } : {}),
    ...(tool.identity !== undefined ? { identity: tool.identity } : {}),
    ...(tool.untrusted !== undefined ? { untrusted: tool.untrusted } : {}),
    ...(tool.afterUntrusted !== undefined ? { afterUntrusted: tool.afterUntrusted } : {}),
    ...(tool.untrustedDefinition !== undefined ? { untrustedDefinition: tool.untrustedDefinition } : {}),
    ...(tool.quarantine !== undefined ? { quarantine: tool.quarantine } : {}),
    ...(tool.heldArguments !== undefined ? { heldArguments: tool.heldArguments } : {}),
    ...(tool.heldOutput !== undefined ? { heldOutput: tool.heldOutput } : {}),
  };
}

/** What a remote tool asks of the page that holds it. */
export type PageRequests = Pick<PageHostApi, 'call' | 'needsApproval' | 'target' | 'abort'>;

/** Keys of the calls and rules the runner worker sends to the page: an abort names one. */
let nextKey = 0;

/**
 * In the runner worker: a tool whose code lives on the page (or in a tool worker the page
 * supervises). Its `call` and its rule go to the page over Comlink; its abort follows them
 * there. Everything else (validation, timeout, retries, policy) happens here, in the pipeline.
 */
export function remoteTool(descriptor: ToolDescriptor, page: PageRequests): Tool {
  const { approval, targeted, ...definition } = descriptor;
  return {
    ...definition,
    needsApproval:
      approval === 'ask'
        ? (args, { signal }) => followed(sourceOf(signal), page, (key) => page.needsApproval(definition.name, args, key))
        : approval === 'always',
    ...(targeted
      ? { target: (args: unknown, { signal }: { signal: AbortSignal }) => followed(sourceOf(signal), page, (key) => page.target(definition.name, args, key)) }
      : {}),
    // The page made the output JSON (serve.ts): taken as it is, never converted a second time here.
    call: (args, ctx) =>
      followed(abortOf(ctx), page, (key) =>
        page.call(
          definition.name,
          args,
          { callId: ctx.callId, attempt: ctx.attempt, idempotencyKey: ctx.idempotencyKey, ...(ctx.target ? { target: ctx.target } : {}) },
          key,
        ),
      ).then(fromServedOutput),
  };
}

type Abort = Pick<AbortSource, 'onAbort' | 'reason'>;

/** How a call hears its abort: without making its signal where the context offers that. */
function abortOf(ctx: ToolContext): Abort {
  return ctx.onAbort ? new ContextAbort(ctx) : sourceOf(ctx.signal);
}

/** A context's abort, heard through `ctx.onAbort`; its reason read from the signal only once it fired. A class: an object literal with a getter is V8's slow path, on every call. */
class ContextAbort implements Abort {
  constructor(readonly ctx: ToolContext) {}

  onAbort(callback: () => void): () => void {
    return this.ctx.onAbort!(callback);
  }

  get reason(): unknown {
    return this.ctx.signal.reason;
  }
}

/** A request to the page that the page is told to abort when `abort` fires (its answer then no longer awaited here). */
function followed<T>(abort: Abort, page: PageRequests, send: (key: number) => Promise<T>): Promise<T> {
  const key = nextKey++;
  const unhook = abort.onAbort(() => page.abort(key, toWireReason(abort.reason)));
  const sent = send(key);
  sent.then(unhook, unhook);
  return sent;
}
