import { AsyncQueue } from '../util/async-queue.js';
import type { FinishReason, Usage } from '../core/types.js';
import type { ParseError } from '../parser/types.js';
import type { ToolCall, ToolResult } from '../core/types.js';
import type { RunFailure } from './run-failure.js';
import type { RunResult } from './run-result.js';

/** What a run reports as it goes, in order. `leafId` marks an event that comes from a leaf run. */
export type RunEvent = (
  | { type: 'run_started'; runId: string; input: string }
  | { type: 'text_delta'; text: string }
  | { type: 'tool_call'; call: ToolCall }
  | { type: 'format_error'; error: ParseError }
  | { type: 'approval_requested'; call: ToolCall }
  /** `standing`: a standing decision of the conversation decided, nobody was asked. */
  | { type: 'approval_resolved'; callId: string; approved: boolean; reason?: string; standing?: true }
  | { type: 'tool_started'; callId: string; name: string; attempt: number }
  | { type: 'tool_retry'; callId: string; name: string; attempt: number; nextAttempt: number; delayMs: number }
  | { type: 'tool_finished'; result: ToolResult }
  /** A running call reports how far it is (an MCP server's progress notifications). */
  | { type: 'tool_progress'; callId: string; progress: number; total?: number; message?: string }
  | { type: 'usage'; usage: Usage }
  /**
   * Before a model turn: the oldest messages were left out of the request to fit the context budget
   * (the stored conversation keeps them). `droppedMessages` counts them all, those a run on a long
   * conversation did not read included; `tokensBefore` counts what the run read.
   */
  | { type: 'context_trimmed'; droppedMessages: number; tokensBefore: number; tokensAfter: number }
  | { type: 'iteration_finished'; iteration: number; finishReason: FinishReason; toolCalls: number }
  | { type: 'run_finished'; result: RunResult }
  | { type: 'run_failed'; error: RunFailure }
  /**
   * Something went wrong that did not change the run's outcome (say a leaf's snapshot could not
   * be updated; `mcp_tool_changed`: an MCP server changed a tool's definition, which is withdrawn).
   */
  | { type: 'warning'; code: string; message: string }
) & { leafId?: string };

type TextDelta = Extract<RunEvent, { type: 'text_delta' }>;

/** Append `text` (of `delta`) to `last` if that is an unsent text delta of the same run or leaf; whether it did. */
export function joinTextDelta(last: RunEvent | undefined, delta: TextDelta, text = delta.text): boolean {
  if (last?.type !== 'text_delta' || last.leafId !== delta.leafId) return false;
  last.text += text;
  return true;
}

type Progress = Extract<RunEvent, { type: 'tool_progress' }>;

/**
 * A run's events, read once with `for await`: consecutive unread text deltas merge into one,
 * and a call's progress replaces its unread progress where that one waits (see AsyncQueue):
 * what a server sends cannot grow the buffer of a run nobody reads.
 */
export class EventChannel extends AsyncQueue<RunEvent> {
  /** Each call's progress event not read yet, by leaf and call id. */
  readonly #unreadProgress = new Map<string, Progress>();

  constructor() {
    super((last, next) => (next.type === 'text_delta' ? joinTextDelta(last, next) : next.type === 'tool_progress' && this.#replaceProgress(next)));
  }

  #replaceProgress(next: Progress): boolean {
    const key = progressKey(next);
    const unread = this.#unreadProgress.get(key);
    this.#unreadProgress.set(key, unread ?? next);
    if (!unread) return false;
    delete unread.total;
    delete unread.message;
    Object.assign(unread, next);
    return true;
  }

  /** The queue's own reading; a progress event handed to the reader is no longer replaced. */
  override async *[Symbol.asyncIterator](): AsyncIterator<RunEvent> {
    for await (const event of { [Symbol.asyncIterator]: () => super[Symbol.asyncIterator]() }) {
      if (event.type === 'tool_progress' && this.#unreadProgress.get(progressKey(event)) === event) this.#unreadProgress.delete(progressKey(event));
      yield event;
    }
  }
}

const progressKey = (event: Progress) => `${event.leafId ?? ''}\u0000${event.callId}`;
