import { isRecord, shown } from './record-shape.js';
import { corruptData, invalidValue } from './storage-failure.js';
import { decisionFault } from './journal-rules.js';
import type { RecordedDecision, StandingDecision } from './approval-types.js';

/** Refuse (`storage_invalid`) a conversation id or tool name that is not a non-empty string. */
export function checkStandingKey(conversation: unknown, tool: unknown, action: string): void {
  if (typeof conversation !== 'string' || conversation === '')
    throw invalidValue(action, `a conversation id is a non-empty string, got ${shown(conversation)}`);
  if (typeof tool !== 'string' || tool === '') throw invalidValue(action, `a tool name is a non-empty string, got ${shown(tool)}`);
}

/** Refuse (`storage_invalid`) a decision without `approved` or a time. */
export function checkDecision(decision: RecordedDecision | StandingDecision, action: string): void {
  const fault = decisionFault(decision);
  if (fault) throw invalidValue(action, `the decision ${fault}`);
}

/** A standing decision as read, refused (`storage_corrupt`) unless it is one. */
export function readStanding(value: unknown, action: string): StandingDecision {
  const fault = decisionFault(value);
  if (fault || !isRecord(value) || typeof value.tool !== 'string') throw corruptData(action, `a stored standing decision ${fault ?? 'has no tool name'}`);
  return value as unknown as StandingDecision;
}
