import { loadOnce } from '../util/load-once.js';
import type { ApprovalRecord, ApprovalStore, PendingApproval, RecordedDecision, StandingDecision } from './approval-types.js';
import type { MemoryApprovalStore } from './memory-approval-store.js';

const storeCode = loadOnce(() => import('./memory-approval-store.js'));

/**
 * A MemoryConversationStore's approvals: a MemoryApprovalStore whose code (and rules) load at
 * its first use, as a run that asks nobody never needs them. Calls made while it loads take effect
 * in call order once it is here; after that, each call goes straight to the store, at once.
 */
export class MemoryApprovalsOnDemand implements ApprovalStore {
  #store: MemoryApprovalStore | undefined;
  #loading: Promise<MemoryApprovalStore> | undefined;

  /** `use` on the store: now if it is here, else once it loaded (a failed load is tried again by the next call). */
  #with<T>(use: (store: MemoryApprovalStore) => T): T | Promise<Awaited<T>> {
    if (this.#store) return use(this.#store);
    this.#loading ??= storeCode().then(
      ({ MemoryApprovalStore }) => (this.#store ??= new MemoryApprovalStore()),
      (error: unknown) => {
        this.#loading = undefined;
        throw error;
      },
    );
    return this.#loading.then(use) as Promise<Awaited<T>>;
  }

  request(conversation: string, pending: PendingApproval): Promise<void> {
    return this.#with((store) => store.request(conversation, pending));
  }
  decide(conversation: string, callId: string, decision: RecordedDecision): Promise<void> {
    return this.#with((store) => store.decide(conversation, callId, decision));
  }
  get(conversation: string, callId: string): Promise<ApprovalRecord | undefined> {
    return this.#with((store) => store.get(conversation, callId));
  }
  list(conversation: string): Promise<ApprovalRecord[]> {
    return this.#with((store) => store.list(conversation));
  }
  forget(conversation: string, callIds: readonly string[]): Promise<void> {
    return this.#with((store) => store.forget(conversation, callIds));
  }
  setStanding(decision: StandingDecision): Promise<void> {
    return this.#with((store) => store.setStanding(decision));
  }
  standing(conversation: string, tool: string): Promise<StandingDecision | undefined> {
    return this.#with((store) => store.standing(conversation, tool));
  }
  /** Forget everything of a conversation (it was deleted); called while the store loads, it lands after the calls made before it. */
  clear(conversation: string): void {
    // A load that fails leaves nothing stored to clear (no call could land before it either).
    void Promise.resolve(this.#with((store) => store.clear(conversation))).catch(() => {});
  }
}
