import { AmbiError } from '../errors/ambi-error.js';
import { onAbort } from '../util/abort-source.js';

/** A person's answer to an `approval_requested` event. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
  /** Decide every later call of this tool in this conversation the same way, without asking (a standing decision). */
  always?: boolean;
  /** Run the call with these arguments instead of the model's (validated again; the model is told). */
  arguments?: unknown;
  /** Why the arguments the person gave could not be used (they could not cross to the runner): the call does not run (`invalid_arguments`). */
  refusedArguments?: string;
}

/** What `run.approve(callId, options)` takes. */
export interface ApproveOptions {
  /** Allow every later call of this tool in this conversation without asking (stored with the conversation). */
  always?: boolean;
  /** Run the call with these arguments instead: validated again (invalid: `invalid_arguments`, not run), and the model is told they were edited. */
  arguments?: unknown;
}

/** What `run.deny(callId, reason, options)` takes. */
export interface DenyOptions {
  /** Deny every later call of this tool in this conversation without asking (stored with the conversation). */
  always?: boolean;
}

type Settle = (decision: ApprovalDecision) => void;

/**
 * The calls that wait for a person, by call id: a run's own and its leaves' (one run's
 * `approve`/`deny` answers them all). Call ids are unique within a run and its leaves
 * (see CallIds), so a decision reaches exactly the call whose card carried its id.
 */
export class Approvals {
  readonly #pending = new Map<string, Settle>();

  /** Wait for `approve` or `deny` of `callId`; rejects with the signal's reason on abort. */
  wait(callId: string, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return Promise.reject(signal.reason);
    // Never reached while ids are claimed per run: a second waiter would take the first one's answer.
    if (this.#pending.has(callId)) return Promise.reject(new AmbiError('duplicate_call_id', `Call id "${callId}" already waits for approval in this run`));
    return new Promise((resolve, reject) => {
      const unhook = onAbort(signal, () => {
        this.#pending.delete(callId);
        reject(signal.reason);
      });
      this.#pending.set(callId, (decision) => {
        unhook();
        resolve(decision);
      });
    });
  }

  /** Answer the call with this id; returns false if none is waiting. */
  decide(callId: string, decision: ApprovalDecision): boolean {
    const settle = this.#pending.get(callId);
    if (!settle) return false;
    this.#pending.delete(callId);
    settle(decision);
    return true;
  }
}
