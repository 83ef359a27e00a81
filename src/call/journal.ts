import { isAmbiError } from '../errors/ambi-error.js';
import { errorMessage } from '../errors/error-message.js';
import type { ToolResult } from '../core/types.js';
import type { ToolCallJournal } from '../store/types.js';
import type { Tool } from '../tools/types.js';
import { toolFailure } from './result.js';
import type { CallRun, RunCall } from './types.js';

/**
 * Whether a call is journalled (recorded `started` before it runs, and its result after):
 * its tool is not idempotent, or a person approved it (an approved call runs once, whatever
 * the reloads). The one rule: a resume reads it to know what a missing entry proves.
 */
export function journalled(tool: Pick<Tool, 'idempotent'>, approvedByPerson: boolean): boolean {
  return !tool.idempotent || approvedByPerson;
}

/**
 * Stage 6 of a call: its `started` record, written before it runs. Resolves with undefined
 * once written, or with the result of a call that does not run: unrecorded, a consequential
 * call could run twice after a reload.
 */
export async function beginJournal(journal: ToolCallJournal, call: RunCall, run: CallRun, durationMs: () => number): Promise<ToolResult | undefined> {
  try {
    await journal.begin({
      idempotencyKey: call.idempotencyKey,
      callId: call.id,
      name: call.name,
      arguments: call.arguments,
      ...(run.conversation ? { conversation: run.conversation } : {}),
    });
    return undefined;
  } catch (error) {
    const code = isAmbiError(error) ? error.code : 'storage_error';
    return toolFailure(call, code, `Tool "${call.name}" was not run: its journal entry could not be written (${errorMessage(error)})`, 0, durationMs());
  }
}

/** The call's result recorded; a journal that stays `started` only makes a resume cautious (the result also reaches the conversation). */
export async function finishJournal(journal: ToolCallJournal, key: string, result: ToolResult): Promise<void> {
  await journal.finish(key, result).catch(() => {});
}
