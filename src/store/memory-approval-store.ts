import { checkDecision, checkIds, checkPending, sameCall } from './approval-record-checks.js';
import type { ApprovalRecord, ApprovalStore, PendingApproval, RecordedDecision, StandingDecision } from './approval-types.js';
import { invalidValue, toStorageError } from './storage-failure.js';

/** Approvals in memory, next to a MemoryConversationStore's conversations; same rules and errors as IndexedDB. */
export class MemoryApprovalStore implements ApprovalStore {
  readonly #records = new Map<string, Map<string, ApprovalRecord>>();
  readonly #standing = new Map<string, StandingDecision>();

  async request(conversation: string, pending: PendingApproval & Pick<ApprovalRecord, 'tool' | 'runId'>): Promise<void> {
    const action = `record the approval of call "${String(pending?.callId)}"`;
    checkIds(conversation, pending?.callId, action);
    checkPending(pending, action);
    const records = this.#of(conversation);
    const existing = records.get(pending.callId);
    // The same call asked again (a resume) keeps its record; another call under that id replaces it.
    if (!existing || !sameCall(existing, pending)) records.set(pending.callId, copy({ ...pending, conversation }, action));
  }

  async decide(conversation: string, callId: string, decision: RecordedDecision): Promise<void> {
    const action = `record the decision on call "${String(callId)}"`;
    checkIds(conversation, callId, action);
    checkDecision(decision, action);
    const record = this.#records.get(conversation)?.get(callId);
    if (!record) throw invalidValue(action, 'no approval was requested for it');
    this.#of(conversation).set(callId, copy({ ...record, decision }, action));
  }

  async get(conversation: string, callId: string): Promise<ApprovalRecord | undefined> {
    checkIds(conversation, callId, `read the approval of call "${String(callId)}"`);
    const record = this.#records.get(conversation)?.get(callId);
    return record && structuredClone(record);
  }

  async list(conversation: string): Promise<ApprovalRecord[]> {
    checkIds(conversation, '-', 'list approvals');
    return [...(this.#records.get(conversation)?.values() ?? [])].sort((a, b) => a.requestedAt - b.requestedAt).map((r) => structuredClone(r));
  }

  async forget(conversation: string, callIds: readonly string[]): Promise<void> {
    checkIds(conversation, '-', 'forget approvals');
    const records = this.#records.get(conversation);
    for (const id of callIds) records?.delete(id);
  }

  async setStanding(decision: StandingDecision): Promise<void> {
    const action = `record a standing decision for tool "${String(decision?.tool)}"`;
    checkIds(decision?.conversation, decision?.tool, action);
    checkDecision(decision, action);
    this.#standing.set(JSON.stringify([decision.conversation, decision.tool]), copy(decision, action));
  }

  async standing(conversation: string, tool: string): Promise<StandingDecision | undefined> {
    checkIds(conversation, tool, `read the standing decision for tool "${String(tool)}"`);
    const found = this.#standing.get(JSON.stringify([conversation, tool]));
    return found && structuredClone(found);
  }

  /** Forget everything of a conversation (it was deleted). */
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
