import { isRecord, isTime, shown } from './record-shape.js';
import { corruptData, invalidValue } from './storage-failure.js';
import type { JournalEntry } from './types.js';

const STATES: ReadonlySet<unknown> = new Set(['asked', 'decided', 'started', 'succeeded', 'failed']);

/** Refuse (`storage_invalid`) an idempotency key that is not a string (IndexedDB cannot key it; a Map would). */
export function checkKey(key: unknown, action: string): void {
  if (typeof key !== 'string') throw invalidValue(action, `an idempotency key is a string, got ${shown(key)}`);
}

/** Refuse (`storage_invalid`) what `begin` cannot record: the entry's key, call id, name and conversation are strings. */
export function checkBegin(entry: unknown, action: string): void {
  if (!isRecord(entry)) throw invalidValue(action, `a journal entry is an object, got ${shown(entry)}`);
  checkKey(entry.idempotencyKey, action);
  const fault = callFault(entry);
  if (fault) throw invalidValue(action, `the entry ${fault}`);
}

/** Refuse (`storage_invalid`) what `ask` cannot record: `begin`'s rules, a non-empty conversation and call id, and a time. */
export function checkAsk(entry: unknown, action: string): void {
  checkBegin(entry, action);
  const { conversation, callId, requestedAt } = entry as Record<string, unknown>;
  if (typeof conversation !== 'string' || conversation === '')
    throw invalidValue(action, `a conversation id is a non-empty string, got ${shown(conversation)}`);
  if (callId === '') throw invalidValue(action, 'a call id is a non-empty string, got ""');
  if (!isTime(requestedAt)) throw invalidValue(action, `the approval has the requestedAt ${shown(requestedAt)}, not a time in epoch milliseconds`);
}

/** Refuse (`storage_invalid`) an outcome that is not a ToolResult: the journal's state and a resumed run's message come from it. */
export function checkResult(result: unknown, action: string): void {
  const fault = resultFault(result);
  if (fault) throw invalidValue(action, `the result ${fault}`);
}

/** An entry as read, refused (`storage_corrupt`) if it is not one the journal writes (a resumed run then treats the call's outcome as unknown). */
export function readEntry(value: unknown, action: string): JournalEntry {
  const fault = entryFault(value);
  if (fault) throw corruptData(action, `a stored journal entry ${fault}`);
  return value as JournalEntry;
}

function entryFault(value: unknown): string | undefined {
  if (!isRecord(value)) return `is ${shown(value)}, not an object`;
  if (typeof value.idempotencyKey !== 'string') return `has the key ${shown(value.idempotencyKey)}, not a string`;
  const fault = callFault(value) ?? stateFault(value);
  return fault && `"${value.idempotencyKey}" ${fault}`;
}

function callFault(entry: Record<string, unknown>): string | undefined {
  if (typeof entry.callId !== 'string') return `has the call id ${shown(entry.callId)}, not a string`;
  if (typeof entry.name !== 'string') return `has the tool name ${shown(entry.name)}, not a string`;
  if (entry.conversation !== undefined && typeof entry.conversation !== 'string') return `has the conversation ${shown(entry.conversation)}, not a string`;
  return undefined;
}

function stateFault(entry: Record<string, unknown>): string | undefined {
  if (!STATES.has(entry.state)) return `is in the state ${shown(entry.state)}, not asked, decided, started, succeeded or failed`;
  if (!isTime(entry.updatedAt)) return `has the updatedAt ${shown(entry.updatedAt)}, not a time in epoch milliseconds`;
  if (entry.requestedAt !== undefined && !isTime(entry.requestedAt)) return `has the requestedAt ${shown(entry.requestedAt)}, not a time in epoch milliseconds`;
  if (entry.state === 'asked' && entry.requestedAt === undefined) return 'is asked without a requestedAt';
  const decisionAt = entry.state === 'decided' || entry.decision !== undefined;
  if (decisionAt) {
    const fault = decisionFault(entry.decision);
    if (fault) return `has a decision that ${fault}`;
  }
  if (entry.state !== 'succeeded' && entry.state !== 'failed') return undefined;
  const fault = resultFault(entry.result) ?? answerFault(entry.result as Record<string, unknown>, entry.callId);
  return fault && `is ${String(entry.state)} with a result that ${fault}`;
}

/** What a recorded decision must be: `approved` true or false, a reason that is a string, a time. */
export function decisionFault(decision: unknown): string | undefined {
  if (!isRecord(decision)) return `is ${shown(decision)}, not an object`;
  if (typeof decision.approved !== 'boolean') return `has approved ${shown(decision.approved)}, not true or false`;
  if (decision.reason !== undefined && typeof decision.reason !== 'string') return `has the reason ${shown(decision.reason)}, not a string`;
  if (!isTime(decision.decidedAt)) return `has the decidedAt ${shown(decision.decidedAt)}, not a time in epoch milliseconds`;
  return undefined;
}

// A resumed run answers the journalled call with this result: one for another call would be an orphan tool message.
function answerFault(result: Record<string, unknown>, callId: unknown): string | undefined {
  return result.id === callId ? undefined : `answers the call ${shown(result.id)}, not ${shown(callId)}`;
}

function resultFault(result: unknown): string | undefined {
  if (!isRecord(result)) return `is ${shown(result)}, not an object`;
  if (typeof result.id !== 'string' || typeof result.name !== 'string') return 'has no call id or tool name';
  if (typeof result.ok !== 'boolean') return `has ok ${shown(result.ok)}, not true or false`;
  if (!result.ok && !(isRecord(result.error) && typeof result.error.code === 'string' && typeof result.error.message === 'string')) {
    return 'is a failure without an error { code, message }';
  }
  if (!isTime(result.attempts) || !isTime(result.durationMs)) return 'has no attempts or durationMs';
  return undefined;
}
