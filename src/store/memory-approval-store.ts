import type { ApprovalRecord, ApprovalStore, PendingApproval, RecordedDecision, StandingDecision } from './approval-types.js';
import type { MemoryApprovals } from './memory-approvals.js';
import { arrived, loadedRules, loadRules, rulesPending, type MemoryStoreRules } from './memory-rules-loader.js';

/**
 * Approvals in memory, next to a MemoryConversationStore's conversations; same rules and errors as IndexedDB.
 * Every MemoryConversationStore makes one, and a runner whose tools never ask for approval never uses it:
 * what it holds, and its rules, load on its first use (memory-approvals.ts); from then on each call runs at once.
 */
export class MemoryApprovalStore implements ApprovalStore {
  #approvals: MemoryApprovals | undefined;

  async request(conversation: string, pending: PendingApproval): Promise<void> {
    this.#held(loadedRules() ?? arrived(await loadRules())).request(conversation, pending);
  }

  async decide(conversation: string, callId: string, decision: RecordedDecision): Promise<void> {
    this.#held(loadedRules() ?? arrived(await loadRules())).decide(conversation, callId, decision);
  }

  async get(conversation: string, callId: string): Promise<ApprovalRecord | undefined> {
    return this.#held(loadedRules() ?? arrived(await loadRules())).get(conversation, callId);
  }

  async list(conversation: string): Promise<ApprovalRecord[]> {
    return this.#held(loadedRules() ?? arrived(await loadRules())).list(conversation);
  }

  async forget(conversation: string, callIds: readonly string[]): Promise<void> {
    this.#held(loadedRules() ?? arrived(await loadRules())).forget(conversation, callIds);
  }

  async setStanding(decision: StandingDecision): Promise<void> {
    this.#held(loadedRules() ?? arrived(await loadRules())).setStanding(decision);
  }

  async standing(conversation: string, tool: string): Promise<StandingDecision | undefined> {
    return this.#held(loadedRules() ?? arrived(await loadRules())).standing(conversation, tool);
  }

  /** Forget everything of a conversation (it was deleted). */
  clear(conversation: string): void {
    // Calls made while the rules load land after it: this clear comes after them, as it was called.
    const pending = rulesPending();
    if (pending) void pending.then(() => this.#approvals?.clear(conversation));
    else this.#approvals?.clear(conversation);
  }

  #held(rules: MemoryStoreRules): MemoryApprovals {
    this.#approvals ??= new rules.MemoryApprovals();
    return this.#approvals;
  }
}
