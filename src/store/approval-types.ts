import type { ToolCall } from '../core/types.js';

/** A call of an interrupted reply that waits for a person's decision (what `pendingApprovals` lists). */
export interface PendingApproval {
  callId: string;
  call: ToolCall;
  /** Set when the call belongs to a leaf run (leaves are not resumed: see src/runner/README.md). */
  leafId?: string;
  /** Set when a Code Mode program made the call: its `run_code` call's id (a resume runs the program again, and asks again). */
  parentCallId?: string;
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

/**
 * One approval of one conversation: asked for, and decided once `decision` is set. A record is
 * bound to exactly the call it was asked for: its idempotency key (unique to that call, in
 * `call`), its arguments, and the identity of the tool the person saw (`tool`). A resume uses
 * its decision only for that call; any other call, even one reusing its id, is asked anew.
 */
export interface ApprovalRecord extends PendingApproval {
  conversation: string;
  /** The identity of the tool the person was asked about (see `toolIdentity`); absent in records written before it was kept. */
  tool?: string;
  /** The run that asked. */
  runId?: string;
  decision?: RecordedDecision;
}

/** A decision that stands for every later call of `tool` in `conversation` (`always: true`). */
export interface StandingDecision {
  conversation: string;
  /** The tool's name (what the decision is stored under). */
  tool: string;
  /** The identity of the tool the person decided for (see `toolIdentity`): a tool of the same name with another identity is asked again. */
  identity?: string;
  /** Given on a call proposed after the model read untrusted content: only such an approval also decides later such calls. */
  tainted?: boolean;
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
  /**
   * Record that `pending` waits in `conversation`. An existing record of the same call (the same
   * idempotency key) is kept as it is; a record of another call under that id is replaced.
   */
  request(conversation: string, pending: PendingApproval & Pick<ApprovalRecord, 'tool' | 'runId'>): Promise<void>;
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
