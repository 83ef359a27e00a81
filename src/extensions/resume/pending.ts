import type { ToolCall } from '../../core/types.js';
import type { PendingApproval } from '../../store/approval-types.js';
import type { ConversationStore } from '../../store/conversation-store.js';
import type { ToolCallJournal } from '../../store/types.js';
import { conversationEnd, interruptedRun } from './interrupted.js';
import { type CallRecord, readCallRecords } from './records.js';

/**
 * The calls of a conversation's interrupted run that wait for a person, oldest request first: those
 * whose record says a person was asked and has not answered (what a resume asks again). Each is the
 * call as the conversation holds it, with the place it was proposed for, from the same read of the
 * records a resume makes; a journal that cannot be read rejects (coded). A call made on behalf of
 * one of them (a Code Mode program's) waits with it, named by `parentCallId`.
 */
export async function pendingApprovals(store: ConversationStore, journal: ToolCallJournal | undefined, conversation: string): Promise<PendingApproval[]> {
  const interrupted = interruptedRun(await conversationEnd(store, conversation));
  if (!journal || !interrupted || interrupted.calls.length === 0) return [];
  const records = await readCallRecords(journal, interrupted.calls, (error) => {
    throw error;
  });
  const waiting = interrupted.calls.flatMap((call, i): PendingApproval[] => {
    const record = records[i];
    if (record?.state !== 'asked' || record.requestedAt === undefined) return [];
    return [{ callId: call.id, call: record.target ? { ...call, target: record.target } : call, requestedAt: record.requestedAt }];
  });
  const made = await madeOnBehalf(journal, conversation, interrupted.calls, records);
  return [...waiting, ...made].sort((a, b) => a.requestedAt - b.requestedAt);
}

/**
 * The asked, unanswered calls made on behalf of an interrupted call that a resume runs again (a
 * Code Mode program's, keyed `<its run_code call's key>.<index>`): running it again asks again.
 * Read from the conversation's records, only where such a call is left.
 */
async function madeOnBehalf(
  journal: ToolCallJournal,
  conversation: string,
  calls: readonly ToolCall[],
  records: readonly CallRecord[],
): Promise<PendingApproval[]> {
  const parents = calls.filter((call, i) => call.idempotencyKey !== undefined && !records[i]?.result);
  if (parents.length === 0 || !journal.listByConversation) return [];
  const entries = await journal.listByConversation(conversation);
  return entries.flatMap((entry): PendingApproval[] => {
    if (entry.state !== 'asked' || entry.requestedAt === undefined) return [];
    const parent = parents.find((call) => entry.idempotencyKey.startsWith(`${call.idempotencyKey}.`));
    if (!parent) return [];
    const { callId, name, arguments: args, idempotencyKey, target } = entry;
    const call: ToolCall = { id: callId, name, arguments: args, idempotencyKey, ...(target ? { target } : {}) };
    return [{ callId, call, parentCallId: parent.id, requestedAt: entry.requestedAt }];
  });
}
