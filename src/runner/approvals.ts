import { onAbort } from '../tools/abort-source.js';
import type { RunScope } from '../tools/types.js';

/** A person's answer to an `approval_requested` event. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
}

type Settle = (decision: ApprovalDecision) => void;

/**
 * The calls that wait for a person, by call id: a run's own and its leaves' (one run's
 * `approve`/`deny` answers them all). Ids may repeat across a parent and its leaves (a
 * server may number calls per reply): calls with one id are answered first come, first
 * served, and none is ever dropped.
 */
export class Approvals {
  readonly #pending = new Map<string, Settle[]>();

  /** Wait for `approve` or `deny` of `callId`; rejects with the signal's reason on abort. */
  wait(callId: string, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const settle: Settle = (decision) => {
        unhook();
        resolve(decision);
      };
      const unhook = onAbort(signal, () => {
        this.#remove(callId, settle);
        reject(signal.reason);
      });
      const waiting = this.#pending.get(callId);
      if (waiting) waiting.push(settle);
      else this.#pending.set(callId, [settle]);
    });
  }

  /** Answer the call with this id that has waited longest; returns false if none is waiting. */
  decide(callId: string, decision: ApprovalDecision): boolean {
    const settle = this.#pending.get(callId)?.[0];
    if (!settle) return false;
    this.#remove(callId, settle);
    settle(decision);
    return true;
  }

  #remove(callId: string, settle: Settle): void {
    const waiting = this.#pending.get(callId);
    if (!waiting) return;
    const at = waiting.indexOf(settle);
    if (at >= 0) waiting.splice(at, 1);
    if (waiting.length === 0) this.#pending.delete(callId);
  }
}

/** Each turn's scope, with the approvals of its run: kept off the public RunScope, so a tool cannot answer for the person. */
const approvalsByScope = new WeakMap<RunScope, Approvals>();

export function linkApprovals(scope: RunScope, approvals: Approvals): RunScope {
  approvalsByScope.set(scope, approvals);
  return scope;
}

/** The approvals of the run `scope` belongs to (a leaf started from it waits on them too). */
export function approvalsOf(scope: RunScope): Approvals | undefined {
  return approvalsByScope.get(scope);
}
