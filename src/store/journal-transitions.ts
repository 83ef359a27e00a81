import { JournalError } from '../errors/journal-error.js';
import { invalidValue } from './storage-failure.js';
import type { CallHandle, ToolResult } from '../core/types.js';
import type { RecordedDecision } from './approval-types.js';
import type { JournalAsk, JournalBegin, JournalEntry } from './types.js';

export type { JournalAsk, JournalBegin } from './types.js';

/**
 * A call's record moves one way, asked → decided → started → done (`succeeded` or `failed`);
 * `asked` and `decided` only for a call a person was asked about. Each function here is one
 * step: the record as it must be after it, or undefined where nothing is written, or a coded
 * refusal. Both journals (memory and IndexedDB) take the same steps.
 */

/** The record `ask` writes: a new one, `asked`; a call asked again (a resume) keeps the record it has. */
export function askedEntry(existing: JournalEntry | undefined, entry: JournalAsk, now: number): JournalEntry | undefined {
  if (existing) return undefined;
  const { idempotencyKey, callId, name, arguments: args, conversation, runId, target, requestedAt, tool } = entry;
  return {
    idempotencyKey,
    callId,
    name,
    arguments: args,
    conversation,
    ...(runId !== undefined ? { runId } : {}),
    state: 'asked',
    requestedAt,
    ...(tool !== undefined ? { tool } : {}),
    ...(target !== undefined ? { target } : {}),
    updatedAt: now,
  };
}

/** The record `decide` writes: an asked call's decision (refused for a call never asked about, or one that ran). */
export function decidedEntry(existing: JournalEntry | undefined, key: string, decision: RecordedDecision, now: number, action: string): JournalEntry {
  if (!existing) throw invalidValue(action, 'no approval was requested for it');
  if (existing.state !== 'asked' && existing.state !== 'decided') throw new JournalError('journal_conflict', key, existing.state);
  return { ...existing, state: 'decided', decision, updatedAt: now };
}

/**
 * The record `begin` writes: `started`. A call a person was asked about keeps what its record
 * says (the arguments it was proposed with, the decision); any record past that refuses it: a
 * finished one must not be overwritten, and a `started` one means the call may already have run.
 */
export function startedEntry(existing: JournalEntry | undefined, entry: JournalBegin, now: number): JournalEntry {
  if (existing) {
    if (existing.state !== 'asked' && existing.state !== 'decided') throw new JournalError('journal_conflict', entry.idempotencyKey, existing.state);
    return { ...existing, state: 'started', updatedAt: now };
  }
  const { idempotencyKey, callId, name, arguments: args, conversation } = entry;
  return {
    idempotencyKey,
    callId,
    name,
    arguments: args,
    ...(conversation === undefined ? {} : { conversation }),
    state: 'started',
    updatedAt: now,
  };
}

/** The record `finish` writes: the outcome of a `started` call, which is then final. */
export function finishedEntry(existing: JournalEntry | undefined, key: string, result: ToolResult, now: number): JournalEntry {
  if (!existing) throw new JournalError('journal_missing', key);
  if (existing.state !== 'started') throw new JournalError('journal_conflict', key, existing.state);
  // A resumed run answers the journalled call with this result: one for another call would be an orphan tool message.
  if (result.id !== existing.callId) {
    throw invalidValue(`finish journal entry "${key}"`, `the result answers the call "${result.id}", but the entry is for the call "${existing.callId}"`);
  }
  return { ...existing, state: result.ok ? 'succeeded' : 'failed', result, updatedAt: now };
}

/** The record `note` writes: a started call's handle (what it left running); nothing for a call that is not running. */
export function notedEntry(existing: JournalEntry | undefined, handle: CallHandle, now: number): JournalEntry | undefined {
  return existing?.state === 'started' ? { ...existing, handle, updatedAt: now } : undefined;
}

/** Entries oldest update first (ties by key), the order both journals list them in. */
export function byUpdate(a: JournalEntry, b: JournalEntry): number {
  return a.updatedAt - b.updatedAt || (a.idempotencyKey < b.idempotencyKey ? -1 : a.idempotencyKey > b.idempotencyKey ? 1 : 0);
}
