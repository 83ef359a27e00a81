import type { ToolCall } from '../core/types.js';

/** A call of an interrupted reply that waits for a person's decision (what `pendingApprovals` lists). */
export interface PendingApproval {
  callId: string;
  /** The call as the conversation holds it, with the place it was proposed to act on (`target`) where it names one. */
  call: ToolCall;
  /** Set when the call belongs to a leaf run (leaves are not resumed, so this is never set by the runner). */
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
