import type { ToolCall } from '../../core/types.js';
import type { JournalEntry, ToolCallJournal } from '../../store/types.js';
import type { ApprovalRecord, ApprovalStore } from '../../store/approval-types.js';
import { toolIdentity } from '../../tools/identity.js';
import type { Tool } from '../../tools/types.js';
import { isDeepStrictEqual } from './same-json.js';

/** What the records say of one call an interrupted run left without a result: its journal entry and its approval. */
export interface CallRecords {
  /** The journal's entry; `null` when the journal answered it has none; undefined when nobody can tell. */
  entry: JournalEntry | null | undefined;
  /** The approval record asked for exactly this call (its idempotency key and arguments), if any. */
  approval: ApprovalRecord | undefined;
  /** Its decision, where one was recorded for the tool as it is now (a decision on another version of the tool decides nothing). */
  decided: ApprovalRecord['decision'];
}

/**
 * Read a call's journal entry and its approval record, bound to it. A store that cannot answer
 * answers nothing (an unreadable approval is said with `unreadable`: the person is then asked again).
 */
export async function readRecords(
  call: ToolCall,
  tool: Tool | undefined,
  journal: ToolCallJournal | undefined,
  approvals: { store: ApprovalStore; conversation: string } | undefined,
  unreadable: (error: unknown) => void = () => {},
): Promise<CallRecords> {
  const key = call.idempotencyKey;
  const [entry, record] = await Promise.all([
    journal && key
      ? journal.get(key).then(
          (found) => found ?? null,
          () => undefined,
        )
      : undefined,
    approvals
      ? approvals.store.get(approvals.conversation, call.id).catch((error: unknown) => {
          unreadable(error);
          return undefined;
        })
      : undefined,
  ]);
  const approval = record && boundTo(record, call) ? record : undefined;
  const sameTool = approval !== undefined && tool !== undefined && approval.tool === toolIdentity(tool);
  return { entry, approval, decided: sameTool ? approval.decision : undefined };
}

/** Whether an approval record was asked for this very call: the same idempotency key (each call has its own) and the same arguments. */
function boundTo(record: ApprovalRecord, call: ToolCall): boolean {
  return call.idempotencyKey !== undefined && record.call.idempotencyKey === call.idempotencyKey && isDeepStrictEqual(record.call.arguments, call.arguments);
}
