import { JournalError } from '../errors/journal-error.js';
import { invalidValue } from './storage-failure.js';
import type { ToolResult } from '../core/types.js';
import type { JournalEntry, ToolCallJournal } from './types.js';
import type { CallHandle } from '../core/types.js';

/** What `begin` is given. */
export type JournalBegin = Parameters<ToolCallJournal['begin']>[0];

/**
 * The entry `begin` records. Any entry already under the key refuses it: a finished one
 * must not be overwritten, and a `started` one means the call may already have run.
 */
export function startedEntry(existing: JournalEntry | undefined, entry: JournalBegin, now: number): JournalEntry {
  if (existing) throw new JournalError('journal_conflict', entry.idempotencyKey, existing.state);
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

/** The entry `finish` records: the outcome of a `started` entry, which is then final. */
export function finishedEntry(existing: JournalEntry | undefined, key: string, result: ToolResult, now: number): JournalEntry {
  if (!existing) throw new JournalError('journal_missing', key);
  if (existing.state !== 'started') throw new JournalError('journal_conflict', key, existing.state);
  // A resumed run answers the journalled call with this result: one for another call would be an orphan tool message.
  if (result.id !== existing.callId) {
    throw invalidValue(`finish journal entry "${key}"`, `the result answers the call "${result.id}", but the entry is for the call "${existing.callId}"`);
  }
  return { ...existing, state: result.ok ? 'succeeded' : 'failed', result, updatedAt: now };
}

/** The entry `note` records: a `started` entry with what its call leaves running (a later note replaces an earlier one). */
export function notedEntry(existing: JournalEntry | undefined, key: string, handle: CallHandle, now: number): JournalEntry {
  if (!existing) throw new JournalError('journal_missing', key);
  if (existing.state !== 'started') throw new JournalError('journal_conflict', key, existing.state);
  return { ...existing, handle, updatedAt: now };
}

/** Entries oldest update first (ties by key), the order both journals list them in. */
export function byUpdate(a: JournalEntry, b: JournalEntry): number {
  return a.updatedAt - b.updatedAt || (a.idempotencyKey < b.idempotencyKey ? -1 : a.idempotencyKey > b.idempotencyKey ? 1 : 0);
}
