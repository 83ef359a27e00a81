import type { PendingApproval } from '../../store/approval-types.js';
import type { ConversationStore } from '../../store/conversation-store.js';
import type { ToolCallJournal } from '../../store/types.js';
import { conversationEnd, interruptedRun } from './interrupted.js';
import { readCallRecords } from './records.js';

/**
 * The calls of a conversation's interrupted run that wait for a person, oldest request first: those
 * whose record says a person was asked and has not answered (what a resume asks again). Each is the
 * call as the conversation holds it, with the place it was proposed for, from the same read of the
 * records a resume makes; a journal that cannot be read rejects (coded).
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
  return waiting.sort((a, b) => a.requestedAt - b.requestedAt);
}
