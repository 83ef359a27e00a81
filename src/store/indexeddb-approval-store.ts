import { checkDecision, checkIds, checkPending, readApproval, readStanding, sameCall } from './approval-record-checks.js';
import type { ApprovalRecord, ApprovalStore, PendingApproval, RecordedDecision, StandingDecision } from './approval-types.js';
import type { IDBPObjectStore } from 'idb';
import { DatabaseStore } from './database-store.js';
import type { OpenDatabaseOptions } from './database.js';
import { invalidValue, storageOperation } from './storage-failure.js';
import type { AmbiDbSchema } from './schema.js';
import { queue, transact } from './transaction.js';

// A decision is what keeps an approved call from being asked for (and run) again: on disk before the call runs.
const DURABLE: IDBTransactionOptions = { durability: 'strict' };

/** The approvals of an IndexedDbConversationStore's conversations, in the same database (`store.approvals`). */
export class IndexedDbApprovalStore extends DatabaseStore implements ApprovalStore {
  constructor(dbName: string, options: OpenDatabaseOptions = {}) {
    super(dbName, options);
  }

  async request(conversation: string, pending: PendingApproval & Pick<ApprovalRecord, 'tool' | 'runId'>): Promise<void> {
    const action = `record the approval of call "${String(pending?.callId)}"`;
    checkIds(conversation, pending?.callId, action);
    checkPending(pending, action);
    await this.#write(action, 'approvals', async (store) => {
      const existing = (await store.get([conversation, pending.callId])) as ApprovalRecord | undefined;
      // The same call asked again (a resume) keeps its record; another call under that id replaces it.
      if (!existing || !sameCall(existing, pending)) queue(store.put({ ...pending, conversation }));
    });
  }

  async decide(conversation: string, callId: string, decision: RecordedDecision): Promise<void> {
    const action = `record the decision on call "${String(callId)}"`;
    checkIds(conversation, callId, action);
    checkDecision(decision, action);
    await this.#write(action, 'approvals', async (store) => {
      const record = await store.get([conversation, callId]);
      if (!record) throw invalidValue(action, 'no approval was requested for it');
      queue(store.put({ ...readApproval(record, action), decision }));
    });
  }

  async get(conversation: string, callId: string): Promise<ApprovalRecord | undefined> {
    const action = `read the approval of call "${String(callId)}"`;
    checkIds(conversation, callId, action);
    const record = await this.#read(action, 'approvals', (store) => store.get([conversation, callId]));
    return record === undefined ? undefined : readApproval(record, action);
  }

  async list(conversation: string): Promise<ApprovalRecord[]> {
    const action = `list the approvals of conversation "${String(conversation)}"`;
    checkIds(conversation, '-', action);
    const records = await this.#read(action, 'approvals', (store) => store.getAll(ofConversation(conversation)));
    return records.map((record) => readApproval(record, action)).sort((a, b) => a.requestedAt - b.requestedAt);
  }

  async forget(conversation: string, callIds: readonly string[]): Promise<void> {
    if (callIds.length === 0) return;
    // Not DURABLE: a record left behind only makes a resume ask again about a call that has its result.
    await this.#write(
      `forget approvals of conversation "${String(conversation)}"`,
      'approvals',
      async (store) => {
        for (const id of callIds) queue(store.delete([conversation, id]));
      },
      {},
    );
  }

  async setStanding(decision: StandingDecision): Promise<void> {
    const action = `record a standing decision for tool "${String(decision?.tool)}"`;
    checkIds(decision?.conversation, decision?.tool, action);
    checkDecision(decision, action);
    await this.#write(action, 'standing', async (store) => queue(store.put(decision)));
  }

  async standing(conversation: string, tool: string): Promise<StandingDecision | undefined> {
    const action = `read the standing decision for tool "${String(tool)}"`;
    checkIds(conversation, tool, action);
    const found = await this.#read(action, 'standing', (store) => store.get([conversation, tool]));
    return found === undefined ? undefined : readStanding(found, action);
  }

  /** One readonly transaction on `name`; a failure is a coded StorageError naming `action`. */
  #read<N extends Stores, T>(action: string, name: N, body: (store: IDBPObjectStore<AmbiDbSchema, [N], N, 'readonly'>) => Promise<T>): Promise<T> {
    return storageOperation(action, async () => transact(await this.db(), [name], 'readonly', (tx) => body(tx.objectStore(name))));
  }

  /** One readwrite transaction on `name`, strictly durable unless `options` says otherwise; failures as `#read`. */
  #write<N extends Stores>(
    action: string,
    name: N,
    body: (store: IDBPObjectStore<AmbiDbSchema, [N], N, 'readwrite'>) => Promise<unknown>,
    options: IDBTransactionOptions = DURABLE,
  ): Promise<void> {
    return storageOperation(action, async () => {
      await transact(await this.db(), [name], 'readwrite', (tx) => body(tx.objectStore(name)), options);
    });
  }
}

type Stores = 'approvals' | 'standing';

/** Every key of one conversation's records: `[conversation, *]`. */
export const ofConversation = (conversation: string) => IDBKeyRange.bound([conversation], [conversation, []]);
