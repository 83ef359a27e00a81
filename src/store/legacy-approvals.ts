// The approval records of schema steps 4 to 6 (a store of their own, by conversation and call id),
// as step 7 moves them into the journal: each joins the record of its call, by idempotency key.
import type { CallTarget, ToolCall } from '../core/types.js';
import type { RecordedDecision } from './approval-types.js';
import { decisionFault } from './journal-rules.js';
import { isRecord, isTime } from './record-shape.js';
import type { JournalEntry } from './types.js';

/** An approval record as steps 4 to 6 stored it. */
export interface LegacyApproval {
  conversation: string;
  callId: string;
  call: ToolCall & { target?: CallTarget };
  requestedAt: number;
  tool?: string;
  runId?: string;
  leafId?: string;
  decision?: RecordedDecision;
}

/**
 * The journal record an approval becomes: its call's record (under the call's idempotency key)
 * with what the approval said added (when it was asked, about which tool and place, the
 * decision), or a new `asked` / `decided` record where the call has none. A call stored without
 * a key gets `legacy:<conversation>:<call id>`. A value that is no approval record (unreadable
 * before the move as well) is left out: undefined.
 */
export async function migratedApproval(value: unknown, existing: (key: string) => Promise<JournalEntry | undefined>): Promise<JournalEntry | undefined> {
  if (!isApproval(value)) return undefined;
  const { conversation, callId, call, requestedAt, tool, runId, decision } = value;
  const key = typeof call.idempotencyKey === 'string' ? call.idempotencyKey : `legacy:${conversation}:${callId}`;
  const said = {
    requestedAt,
    ...(tool !== undefined ? { tool } : {}),
    ...(call.target !== undefined ? { target: call.target } : {}),
    ...(runId !== undefined ? { runId } : {}),
    ...(decision !== undefined ? { decision } : {}),
  };
  const found = await existing(key);
  if (found) return { ...said, ...found };
  return {
    idempotencyKey: key,
    callId,
    name: call.name,
    arguments: call.arguments,
    conversation,
    state: decision ? 'decided' : 'asked',
    ...said,
    updatedAt: decision?.decidedAt ?? requestedAt,
  };
}

function isApproval(value: unknown): value is LegacyApproval {
  if (!isRecord(value) || typeof value.conversation !== 'string' || typeof value.callId !== 'string' || !isTime(value.requestedAt)) return false;
  if (!isRecord(value.call) || typeof value.call.name !== 'string') return false;
  return value.decision === undefined || decisionFault(value.decision) === undefined;
}
