/** A person's answer to an `approval_requested` event. */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
}

/** The calls of one run that wait for a person, by call id. */
export class Approvals {
  readonly #pending = new Map<string, (decision: ApprovalDecision) => void>();

  /** Wait for `approve` or `deny` of `callId`; rejects with the signal's reason on abort. */
  wait(callId: string, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.#pending.delete(callId);
        reject(signal.reason);
      };
      this.#pending.set(callId, (decision) => {
        signal.removeEventListener('abort', onAbort);
        this.#pending.delete(callId);
        resolve(decision);
      });
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Answer a waiting call; returns false if no call with that id is waiting. */
  decide(callId: string, decision: ApprovalDecision): boolean {
    const settle = this.#pending.get(callId);
    settle?.(decision);
    return settle !== undefined;
  }
}
