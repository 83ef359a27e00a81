import { sourceOf } from '../../util/abort-source.js';
import { withRunSignal } from '../../tools/approval-rule.js';
import { abortSourceOf, forwardsTo } from '../../tools/run-attempt.js';
import type { Tool } from '../../tools/types.js';
import type { ToolDescriptor, ToolInvoker } from './protocol.js';

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
    approval: typeof rule === 'function' ? 'ask' : rule ? 'always' : 'never',
  };
}

/** A tool whose calls go through `invoker` to the realm where its code lives (which converts its outputs to JSON). */
export function remoteTool(descriptor: ToolDescriptor, invoker: ToolInvoker): Tool {
  const { approval, ...definition } = descriptor;
  const tool: Tool = {
    ...definition,
    // The run's signal goes along: a rule still deciding when the run is aborted is stopped where it runs.
    needsApproval: approval === 'ask' ? withRunSignal((args, signal) => invoker.needsApproval(args, sourceOf(signal))) : approval === 'always',
    // The abort travels as its own argument (Comlink converts top-level arguments only); the attempt's signal is not made for it.
    call: (args, ctx) => invoker.call(args, { callId: ctx.callId, attempt: ctx.attempt, idempotencyKey: ctx.idempotencyKey }, abortSourceOf(ctx)),
  };
  // An attempt calls it through the invoker directly (the invoker reads the context's fields, never its `run`).
  return forwardsTo(tool, (args, ctx, abort) => invoker.call(args, ctx, abort));
}
