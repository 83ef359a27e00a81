import { decodeArgs } from '../tools/decode-args.js';
import type { ToolManager } from '../tools/tool-manager.js';
import type { ToolCall, ToolResult } from '../tools/types.js';
import type { Approvals } from './approvals.js';
import type { RunEvent } from './events.js';
import type { Limiter } from './limiter.js';

/** What running one call needs from its run. */
export interface DispatchContext {
  tools: ToolManager;
  /** The run's own limit, then the shared budget, if any. */
  limiters: readonly Limiter[];
  approvals: Approvals;
  emit: (event: RunEvent) => void;
  signal: AbortSignal;
}

/** Whether a call must wait for the whole reply: side effects never start from a partial stream. */
export function mayStartEarly(call: ToolCall, tools: ToolManager): boolean {
  const tool = tools.registry.get(call.name);
  return tool !== undefined && tool.idempotent && !tool.needsApproval;
}

/** Run one call: ask for approval if its tool wants it, wait for a slot, execute. Never rejects. */
export async function dispatchCall(call: ToolCall, ctx: DispatchContext): Promise<ToolResult> {
  const started = performance.now();
  const stopped = (code: string, message: string): ToolResult => {
    const result: ToolResult = { id: call.id, name: call.name, ok: false, error: { code, message }, attempts: 0, durationMs: performance.now() - started };
    ctx.emit({ type: 'tool_finished', result });
    return result;
  };
  const releases: Array<() => void> = [];
  try {
    if (await needsApproval(call, ctx.tools)) {
      ctx.emit({ type: 'approval_requested', call });
      const decision = await ctx.approvals.wait(call.id, ctx.signal);
      ctx.emit({ type: 'approval_resolved', callId: call.id, approved: decision.approved, ...(decision.reason ? { reason: decision.reason } : {}) });
      if (!decision.approved) {
        const why = decision.reason ? `: ${decision.reason}` : '';
        return stopped('denied', `The user denied this call to "${call.name}"${why}`);
      }
    }
    for (const limiter of ctx.limiters) releases.push(await limiter.acquire(ctx.signal));
  } catch {
    for (const release of releases.reverse()) release();
    return stopped('aborted', `Tool "${call.name}" was aborted before it started`);
  }
  try {
    const result = await ctx.tools.execute(call, {
      signal: ctx.signal,
      onAttempt: (attempt) => ctx.emit({ type: 'tool_started', callId: call.id, name: call.name, attempt }),
      onRetry: (info) => ctx.emit({ type: 'tool_retry', callId: call.id, name: call.name, ...info }),
    });
    ctx.emit({ type: 'tool_finished', result });
    return result;
  } finally {
    for (const release of releases.reverse()) release();
  }
}

/** A tool's approval rule applied to this call's arguments (invalid arguments fail later, unapproved). */
async function needsApproval(call: ToolCall, tools: ToolManager): Promise<boolean> {
  const entry = tools.registry.entry(call.name);
  const rule = entry?.tool.needsApproval;
  if (!entry || rule === undefined || rule === false) return false;
  if (rule === true) return true;
  const args = decodeArgs(call.name, call.arguments, entry.validate);
  if (!args.ok) return false;
  try {
    return Boolean(await rule(args.value));
  } catch {
    return true; // a rule that cannot decide asks the person
  }
}
