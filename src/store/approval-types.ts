import type { ToolCall } from '../core/types.js';

/** A call of an interrupted reply that waits for a person's decision (what `pendingApprovals` lists). */
export interface PendingApproval {
  callId: string;
  call: ToolCall;
  /** Set when the call belongs to a leaf run (leaves are not resumed: see src/runner/README.md). */
  leafId?: string;
  /** When the approval was first asked for, in epoch milliseconds. */
  requestedAt: number;
}

/** A person's decision as recorded: written before the call runs, so a reload never asks again. */
export interface RecordedDecision {
  approved: boolean;
  reason?: string;
  /** Arguments the person edited the call to (approved calls only). */
  arguments?: unknown;
  decidedAt: number;
}

/** One approval of one conversation: asked for, and decided once `decision` is set. */
export interface ApprovalRecord extends PendingApproval {
  conversation: string;
  decision?: RecordedDecision;
}

/** A decision that stands for every later call of `tool` in `conversation` (`always: true`). */
export interface StandingDecision {
  conversation: string;
  tool: string;
  approved: boolean;
  reason?: string;
  decidedAt: number;
}

/**
 * Where approvals live next to their conversation (a persistent conversation store has
 * one as `store.approvals`): the requests a reload must ask again, the decisions taken
 * and the standing ones. Every write lands or rejects with a coded StorageError.
 */
export interface ApprovalStore {
  /** Record that `pending` waits in `conversation`; an existing record of the call is kept as it is. */
  request(conversation: string, pending: PendingApproval): Promise<void>;
  /** Record the decision on a requested call (refused with `storage_invalid` for a call never requested). */
  decide(conversation: string, callId: string, decision: RecordedDecision): Promise<void>;
  get(conversation: string, callId: string): Promise<ApprovalRecord | undefined>;
  /** Every approval record of a conversation, oldest request first. */
  list(conversation: string): Promise<ApprovalRecord[]>;
  /** Drop the records of calls that have their results in the conversation. */
  forget(conversation: string, callIds: readonly string[]): Promise<void>;
  setStanding(decision: StandingDecision): Promise<void>;
  standing(conversation: string, tool: string): Promise<StandingDecision | undefined>;
}
