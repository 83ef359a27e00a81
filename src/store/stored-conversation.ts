import type { IDBPObjectStore } from 'idb';
import type { Message } from '../core/types.js';
import { callIds, continuesCalls, conversationFault, tailFault } from './conversation-rules.js';
import { isRecord, isTime } from './record-shape.js';
import type { AmbiDbSchema, ConversationRecord, StoredMessage } from './schema.js';
import { corruptData } from './storage-failure.js';

type MessageLog = IDBPObjectStore<AmbiDbSchema, ArrayLike<'messages' | 'conversations'>, 'messages', IDBTransactionMode>;

/** Every message key of one conversation from `from` on: one range, in `seq` order. */
export const tail = (id: string, from = 0) => IDBKeyRange.bound([id, from], [id, Infinity]);

/** Where the next message of a conversation goes: after its last stored row, whatever its record says. */
export async function storedExtent(log: MessageLog, id: string): Promise<number> {
  const last = await log.openKeyCursor(tail(id), 'prev');
  return last ? Math.floor(last.key[1]) + 1 : 0;
}

/**
 * The calls a batch's leading tool messages may answer: those of the stored assistant
 * message the conversation's trailing tool messages follow. Read only when the batch
 * starts with a tool message, walking back over those trailing rows alone.
 */
export async function openCalls(log: MessageLog, id: string, batch: readonly Message[]): Promise<ReadonlySet<string>> {
  if (!continuesCalls(batch)) return new Set();
  let cursor = await log.openCursor(tail(id), 'prev');
  while (cursor && isRecord(cursor.value.message) && cursor.value.message.role === 'tool') cursor = await cursor.continue();
  // A row that is not a valid message answers nothing: the batch is then refused, not stored after it.
  const message: unknown = cursor?.value.message;
  return conversationFault([message]) ? new Set() : callIds(message as Message);
}

/** A conversation's messages from its rows, refused (`storage_corrupt`) unless they are intact: every position from 0, each a message, no orphan tool message. */
export function intactMessages(id: string, rows: readonly StoredMessage[], action: string): Message[] {
  const gap = rows.findIndex((row, i) => row.seq !== i);
  if (gap !== -1) throw corruptConversation(id, action, gap, 'is missing');
  const messages = rows.map((row) => row.message);
  const fault = conversationFault(messages);
  if (fault) throw corruptConversation(id, action, fault.index, fault.reason);
  return messages;
}

/**
 * The end of a conversation from its rows from `start` on (and its first row when `start` is
 * past it), refused (`storage_corrupt`) unless they are intact: every position from `start` to
 * `length`, each a message, no orphan tool message but leading ones (they answer calls before `start`).
 */
export function intactTail(id: string, rows: readonly StoredMessage[], start: number, length: number, first: StoredMessage | undefined, action: string) {
  const gap = rows.findIndex((row, i) => row.seq !== start + i);
  if (gap !== -1 || rows.length !== length - start) throw corruptConversation(id, action, start + (gap === -1 ? rows.length : gap), 'is missing');
  const messages = rows.map((row) => row.message);
  const fault = tailFault(messages);
  if (fault) throw corruptConversation(id, action, start + fault.index, fault.reason);
  if (start === 0) return { length, start, messages };
  const head: unknown = first?.message;
  const headFault = first ? conversationFault([head]) : { reason: 'is missing' };
  if (headFault) throw corruptConversation(id, action, 0, headFault.reason);
  return { length, start, messages, first: head as Message };
}

/** The record of a conversation that holds `length` rows, written `now`: its creation time kept when it has a valid one. */
export function repairedRecord(id: string, previous: ConversationRecord | undefined, length: number, now: number): ConversationRecord {
  return { ...previous, id, length, createdAt: isTime(previous?.createdAt) ? previous.createdAt : now, updatedAt: now };
}

/** A message count as a record keeps it: a whole number >= 0. */
export function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** Records whose times are what the store writes, refused (`storage_corrupt`) otherwise. */
export function checkedRecords(records: ConversationRecord[], action: string): ConversationRecord[] {
  const bad = records.find((record) => !isTime(record.createdAt) || !isTime(record.updatedAt));
  if (bad) {
    throw corruptData(
      action,
      `the record of conversation "${bad.id}" has no valid createdAt or updatedAt; an append to it repairs its record, delete("${bad.id}") removes it`,
    );
  }
  return records;
}

function corruptConversation(id: string, action: string, index: number, reason: string) {
  const recovery =
    index === 0
      ? `none of its messages is intact: delete("${id}") removes the conversation`
      : `its first ${index} messages are intact: truncate("${id}", ${index}) keeps them, delete("${id}") removes the conversation`;
  return corruptData(action, `message ${index} ${reason}; ${recovery}`);
}
