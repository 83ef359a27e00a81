import { isRecord, isTime, shown } from './record-shape.js';
import { corruptData, invalidValue } from './storage-failure.js';
import type { ApprovalRecord, PendingApproval, RecordedDecision, StandingDecision } from './approval-types.js';

/** Refuse (`storage_invalid`) a conversation id or call id that is not a non-empty string. */
export function checkIds(conversation: unknown, callId: unknown, action: string): void {
  if (typeof conversation !== 'string' || conversation === '')
    throw invalidValue(action, `a conversation id is a non-empty string, got ${shown(conversation)}`);
  if (typeof callId !== 'string' || callId === '') throw invalidValue(action, `a call id is a non-empty string, got ${shown(callId)}`);
}

/** Refuse (`storage_invalid`) a pending approval that is not one: a call with this id and a name, a time. */
export function checkPending(pending: PendingApproval, action: string): void {
  const fault = pendingFault(pending);
  if (fault) throw invalidValue(action, `the approval ${fault}`);
}

/** Refuse (`storage_invalid`) a decision without `approved` or a time. */
export function checkDecision(decision: RecordedDecision | StandingDecision, action: string): void {
  const fault = decisionFault(decision);
  if (fault) throw invalidValue(action, `the decision ${fault}`);
}

/** A record as read, refused (`storage_corrupt`) if it is not one this store writes (a resume then asks again). */
export function readApproval(value: unknown, action: string): ApprovalRecord {
  const fault = isRecord(value)
    ? (pendingFault(value as unknown as PendingApproval) ?? (value.decision === undefined ? undefined : decisionFault(value.decision)))
    : 'is not an object';
  if (fault) throw corruptData(action, `a stored approval ${fault}`);
  return value as unknown as ApprovalRecord;
}

/** A standing decision as read, refused (`storage_corrupt`) unless it is one. */
export function readStanding(value: unknown, action: string): StandingDecision {
  const fault = decisionFault(value);
  if (fault || !isRecord(value) || typeof value.tool !== 'string') throw corruptData(action, `a stored standing decision ${fault ?? 'has no tool name'}`);
  return value as unknown as StandingDecision;
}

function pendingFault(pending: unknown): string | undefined {
  if (!isRecord(pending)) return `is ${shown(pending)}, not an object`;
  if (typeof pending.callId !== 'string' || pending.callId === '') return `has the call id ${shown(pending.callId)}, not a non-empty string`;
  if (!isRecord(pending.call) || pending.call.id !== pending.callId || typeof pending.call.name !== 'string') return 'has no call with its id and a tool name';
  if (pending.leafId !== undefined && typeof pending.leafId !== 'string') return `has the leaf id ${shown(pending.leafId)}, not a string`;
  if (!isTime(pending.requestedAt)) return `has the requestedAt ${shown(pending.requestedAt)}, not a time in epoch milliseconds`;
  return undefined;
}

function decisionFault(decision: unknown): string | undefined {
  if (!isRecord(decision)) return `is ${shown(decision)}, not an object`;
  if (typeof decision.approved !== 'boolean') return `has approved ${shown(decision.approved)}, not true or false`;
  if (decision.reason !== undefined && typeof decision.reason !== 'string') return `has the reason ${shown(decision.reason)}, not a string`;
  if (!isTime(decision.decidedAt)) return `has the decidedAt ${shown(decision.decidedAt)}, not a time in epoch milliseconds`;
  return undefined;
}

/** Whether a stored record was asked for the call `pending` is: the same idempotency key (each call has its own). */
export function sameCall(record: PendingApproval, pending: PendingApproval): boolean {
  return record.call.idempotencyKey !== undefined && record.call.idempotencyKey === pending.call.idempotencyKey;
}
