import { checkDecision, checkIds, checkPending, readApproval, readStanding } from './approval-rules.js';
import type { ApprovalRecord, ApprovalStore, PendingApproval, RecordedDecision, StandingDecision } from './approval-types.js';
import { DatabaseStore } from './database-store.js';
import type { OpenDatabaseOptions } from './database.js';
import { invalidValue, storageOperation } from './storage-failure.js';
import { queue, transact } from './transaction.js';

// A decision is what keeps an approved call from being asked for (and run) again: on disk before the call runs.
const DURABLE: IDBTransactionOptions = { durability: 'strict' };

/** The approvals of an IndexedDbConversationStore's conversations, in the same database (`store.approvals`). */
export class IndexedDbApprovalStore extends DatabaseStore implements ApprovalStore {
  constructor(dbName: string, options: OpenDatabaseOptions = {}) {
    super(dbName, options);
  }

  async request(conversation: string, pending: PendingApproval): Promise<void> {
    const action = `record the approval of call "${String(pending?.callId)}"`;
    checkIds(conversation, pending?.callId, action);
    checkPending(pending, action);
    return storageOperation(action, async () => {
      await transact(
        await this.db(),
        ['approvals'],
        'readwrite',
        async (tx) => {
          const store = tx.objectStore('approvals');
          if ((await store.getKey([conversation, pending.callId])) === undefined) queue(store.put({ ...pending, conversation }));
        },
        DURABLE,
      );
    });
  }

  async decide(conversation: string, callId: string, decision: RecordedDecision): Promise<void> {
    const action = `record the decision on call "${String(callId)}"`;
    checkIds(conversation, callId, action);
    checkDecision(decision, action);
    return storageOperation(action, async () => {
      await transact(
        await this.db(),
        ['approvals'],
        'readwrite',
        async (tx) => {
          const store = tx.objectStore('approvals');
          const record = await store.get([conversation, callId]);
          if (!record) throw invalidValue(action, 'no approval was requested for it');
          queue(store.put({ ...readApproval(record, action), decision }));
        },
        DURABLE,
      );
    });
  }

  async get(conversation: string, callId: string): Promise<ApprovalRecord | undefined> {
    const action = `read the approval of call "${String(callId)}"`;
    checkIds(conversation, callId, action);
    return storageOperation(action, async () => {
      const record = await transact(await this.db(), ['approvals'], 'readonly', (tx) => tx.objectStore('approvals').get([conversation, callId]));
      return record === undefined ? undefined : readApproval(record, action);
    });
  }

  async list(conversation: string): Promise<ApprovalRecord[]> {
    const action = `list the approvals of conversation "${String(conversation)}"`;
    checkIds(conversation, '-', action);
    return storageOperation(action, async () => {
      const records = await transact(await this.db(), ['approvals'], 'readonly', (tx) => tx.objectStore('approvals').getAll(ofConversation(conversation)));
      return records.map((record) => readApproval(record, action)).sort((a, b) => a.requestedAt - b.requestedAt);
    });
  }

  async forget(conversation: string, callIds: readonly string[]): Promise<void> {
    if (callIds.length === 0) return;
    return storageOperation(`forget approvals of conversation "${String(conversation)}"`, async () => {
      await transact(await this.db(), ['approvals'], 'readwrite', async (tx) => {
        for (const id of callIds) queue(tx.objectStore('approvals').delete([conversation, id]));
      });
    });
  }

  async setStanding(decision: StandingDecision): Promise<void> {
    const action = `record a standing decision for tool "${String(decision?.tool)}"`;
    checkIds(decision?.conversation, decision?.tool, action);
    checkDecision(decision, action);
    return storageOperation(action, async () => {
      await transact(await this.db(), ['standing'], 'readwrite', async (tx) => queue(tx.objectStore('standing').put(decision)), DURABLE);
    });
  }

  async standing(conversation: string, tool: string): Promise<StandingDecision | undefined> {
    const action = `read the standing decision for tool "${String(tool)}"`;
    checkIds(conversation, tool, action);
    return storageOperation(action, async () => {
      const found = await transact(await this.db(), ['standing'], 'readonly', (tx) => tx.objectStore('standing').get([conversation, tool]));
      return found === undefined ? undefined : readStanding(found, action);
    });
  }
}

/** Every key of one conversation's records: `[conversation, *]`. */
export const ofConversation = (conversation: string) => IDBKeyRange.bound([conversation], [conversation, []]);
