import type { ApprovalStore, RecordedDecision } from '../store/approval-types.js';
import { untilAborted } from '../util/abort-source.js';
import { errorMessage } from '../errors/error-message.js';
import type { ApprovalDecision, Approvals } from './approvals.js';
import type { RunEvent } from './events.js';
import type { KeyedToolCall } from './model-turn.js';

/** A conversation's approvals, where its store keeps them: what makes a decision outlive the page. */
export interface DurableApprovals {
  store: ApprovalStore;
  conversation: string;
}

/** What asking needs from the run. */
export interface AskContext {
  approvals: Approvals;
  durable?: DurableApprovals;
  emit: (event: RunEvent) => void;
  signal: AbortSignal;
}

/**
 * The decision on a call that needs approval. Stored first, where the conversation has an
 * approval store: a standing decision for its tool decides without asking; a decision
 * recorded before a reload is used again; otherwise the request is recorded (so another page
 * can list it), the person asked, and the decision recorded before the call may run.
 * A store that fails never blocks the person: the run asks and decides in memory, with a warning.
 */
export async function askApproval(call: KeyedToolCall, ctx: AskContext): Promise<ApprovalDecision> {
  const { durable } = ctx;
  const standing = durable ? await quietly(ctx, () => durable.store.standing(durable.conversation, call.name)) : undefined;
  if (standing) {
    const decision = { approved: standing.approved, ...(standing.reason ? { reason: standing.reason } : {}) };
    ctx.emit({ type: 'approval_resolved', callId: call.id, ...decision, standing: true });
    return decision;
  }
  const earlier = durable ? await quietly(ctx, () => durable.store.get(durable.conversation, call.id)) : undefined;
  if (earlier?.decision) {
    // Decided before the page went away: the person is not asked twice.
    const { approved, reason } = earlier.decision;
    const decision: ApprovalDecision = {
      approved,
      ...(reason ? { reason } : {}),
      ...(earlier.decision.arguments !== undefined ? { arguments: earlier.decision.arguments } : {}),
    };
    ctx.emit({ type: 'approval_resolved', callId: call.id, approved, ...(reason ? { reason } : {}) });
    return decision;
  }
  if (durable && !earlier) {
    const pending = { callId: call.id, call: { ...call }, requestedAt: Date.now() };
    await quietly(ctx, () => durable.store.request(durable.conversation, pending));
  }
  ctx.emit({ type: 'approval_requested', call });
  const decision = await ctx.approvals.wait(call.id, ctx.signal);
  if (durable) await record(durable, call, decision, ctx);
  ctx.emit({ type: 'approval_resolved', callId: call.id, approved: decision.approved, ...(decision.reason ? { reason: decision.reason } : {}) });
  return decision;
}

/** Record a decision, and its standing form when `always`. */
async function record(durable: DurableApprovals, call: KeyedToolCall, decision: ApprovalDecision, ctx: AskContext): Promise<void> {
  const decidedAt = Date.now();
  const reason = decision.reason ? { reason: decision.reason } : {};
  const recorded: RecordedDecision = {
    approved: decision.approved,
    ...reason,
    decidedAt,
    ...(decision.arguments !== undefined ? { arguments: decision.arguments } : {}),
  };
  await quietly(ctx, () => durable.store.decide(durable.conversation, call.id, recorded));
  if (decision.always)
    await quietly(ctx, () =>
      durable.store.setStanding({ conversation: durable.conversation, tool: call.name, approved: decision.approved, ...reason, decidedAt }),
    );
}

/** A store operation whose failure becomes a `warning` event (and `undefined`); it races the run's signal, so Stop never waits on a store. */
async function quietly<T>(ctx: AskContext, operation: () => Promise<T>): Promise<T | undefined> {
  try {
    return await untilAborted(operation(), ctx.signal);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    ctx.emit({ type: 'warning', code: 'approval_not_stored', message: `An approval could not be stored with its conversation: ${errorMessage(error)}` });
    return undefined;
  }
}
