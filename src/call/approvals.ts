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
  /** A running call's question answered (`run.respond`): the values given (`null`: refused), checked by the waiter. */
  answers?: unknown;
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

/** What a waiter makes of a decision before it is settled: the decision to settle with, or why it cannot be taken (the waiter keeps waiting). */
export type DecisionCheck = (decision: ApprovalDecision) => ApprovalDecision | { refused: string };

/**
 * The calls that wait for a person, by call id: a run's own and its leaves' (one run's
 * `approve`/`deny` answers them all). Call ids are unique within a run and its leaves
 * (see CallIds), so a decision reaches exactly the call whose card carried its id.
 */
export class Approvals {
  readonly #pending = new Map<string, Settle>();
  readonly #checks = new Map<string, DecisionCheck>();

  /**
   * Wait for `approve` or `deny` of `callId` (or, with `check`, for `respond`: a running call's
   * question, whose answers `check` vets); rejects with the signal's reason on abort.
   */
  wait(callId: string, signal: AbortSignal, check?: DecisionCheck): Promise<ApprovalDecision> {
    if (signal.aborted) return Promise.reject(signal.reason);
    // Never reached while ids are claimed per run: a second waiter would take the first one's answer.
    if (this.#pending.has(callId)) return Promise.reject(new AmbiError('duplicate_call_id', `Call id "${callId}" already waits for approval in this run`));
    return new Promise((resolve, reject) => {
      const unhook = onAbort(signal, () => {
        this.#pending.delete(callId);
        this.#checks.delete(callId);
        reject(signal.reason);
      });
      if (check) this.#checks.set(callId, check);
      this.#pending.set(callId, (decision) => {
        unhook();
        resolve(decision);
      });
    });
  }

  /**
   * Answer the call with this id; returns false if none is waiting. A decision its waiter's check
   * refuses throws `invalid_input` and settles nothing: the call keeps waiting.
   */
  decide(callId: string, decision: ApprovalDecision): boolean {
    const settle = this.#pending.get(callId);
    if (!settle) return false;
    const check = this.#checks.get(callId);
    const checked = check ? check(decision) : decision;
    if ('refused' in checked) throw new AmbiError('invalid_input', checked.refused);
    this.#pending.delete(callId);
    this.#checks.delete(callId);
    settle(checked);
    return true;
  }
}
