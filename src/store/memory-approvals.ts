import type { ApprovalRecord, PendingApproval, RecordedDecision, StandingDecision } from './approval-types.js';
import { checkDecision, checkIds, checkPending } from './approval-rules.js';
import { invalidValue, toStorageError } from './storage-failure.js';

/**
 * What a MemoryApprovalStore holds, and its methods, synchronous (they throw): loaded with the memory
 * stores' rules on the store's first use (memory-store-rules.ts).
 */
export class MemoryApprovals {
  readonly #records = new Map<string, Map<string, ApprovalRecord>>();
  readonly #standing = new Map<string, StandingDecision>();

  request(conversation: string, pending: PendingApproval): void {
    const action = `record the approval of call "${String(pending?.callId)}"`;
    checkIds(conversation, pending?.callId, action);
    checkPending(pending, action);
    const records = this.#of(conversation);
    if (!records.has(pending.callId)) records.set(pending.callId, copy({ ...pending, conversation }, action));
  }

  decide(conversation: string, callId: string, decision: RecordedDecision): void {
    const action = `record the decision on call "${String(callId)}"`;
    checkIds(conversation, callId, action);
    checkDecision(decision, action);
    const record = this.#records.get(conversation)?.get(callId);
    if (!record) throw invalidValue(action, 'no approval was requested for it');
    this.#of(conversation).set(callId, copy({ ...record, decision }, action));
  }

  get(conversation: string, callId: string): ApprovalRecord | undefined {
    checkIds(conversation, callId, `read the approval of call "${String(callId)}"`);
    const record = this.#records.get(conversation)?.get(callId);
    return record && structuredClone(record);
  }

  list(conversation: string): ApprovalRecord[] {
    checkIds(conversation, '-', 'list approvals');
    return [...(this.#records.get(conversation)?.values() ?? [])].sort((a, b) => a.requestedAt - b.requestedAt).map((r) => structuredClone(r));
  }

  forget(conversation: string, callIds: readonly string[]): void {
    checkIds(conversation, '-', 'forget approvals');
    const records = this.#records.get(conversation);
    for (const id of callIds) records?.delete(id);
  }

  setStanding(decision: StandingDecision): void {
    const action = `record a standing decision for tool "${String(decision?.tool)}"`;
    checkIds(decision?.conversation, decision?.tool, action);
    checkDecision(decision, action);
    this.#standing.set(JSON.stringify([decision.conversation, decision.tool]), copy(decision, action));
  }

  standing(conversation: string, tool: string): StandingDecision | undefined {
    checkIds(conversation, tool, `read the standing decision for tool "${String(tool)}"`);
    const found = this.#standing.get(JSON.stringify([conversation, tool]));
    return found && structuredClone(found);
  }

  /** Forget everything of a conversation. */
  clear(conversation: string): void {
    this.#records.delete(conversation);
    for (const [key, decision] of this.#standing) if (decision.conversation === conversation) this.#standing.delete(key);
  }

  #of(conversation: string): Map<string, ApprovalRecord> {
    let records = this.#records.get(conversation);
    if (!records) this.#records.set(conversation, (records = new Map()));
    return records;
  }
}

// Clone as IndexedDB would, refusing the same values with the same coded error.
function copy<T>(value: T, action: string): T {
  try {
    return structuredClone(value);
  } catch (error) {
    throw toStorageError(error, action);
  }
}
