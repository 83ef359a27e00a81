import { AmbiError } from '../errors/ambi-error.js';
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
  | { type: 'approval_resolved'; callId: string; approved: boolean; reason?: string }
  | { type: 'tool_started'; callId: string; name: string; attempt: number }
  | { type: 'tool_retry'; callId: string; name: string; attempt: number; nextAttempt: number; delayMs: number }
  | { type: 'tool_finished'; result: ToolResult }
  /** A running call reports how far it is (an MCP server's progress notifications). */
  | { type: 'tool_progress'; callId: string; progress: number; total?: number; message?: string }
  | { type: 'usage'; usage: Usage }
  /** Before a model turn: the oldest messages were left out of the request to fit the context budget (the stored conversation keeps them). */
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

/**
 * A single-reader event queue that never stalls the producer. Its memory stays bounded
 * by the run's own work: consecutive text deltas merge into one while unread. One reader
 * at a time: a second one, while the first reads, is refused (two would wake only one of
 * them, and the other would wait forever); a reader that stops early leaves what it had
 * not read for the next.
 */
export class EventChannel implements AsyncIterable<RunEvent> {
  #queue: RunEvent[] = [];
  #wake: (() => void) | undefined;
  #closed = false;
  #reading = false;

  #sink: ((event: RunEvent | null) => void) | undefined;

  /** Queue an event (a text delta joins an unread one before it). */
  push(event: RunEvent): void {
    if (this.#closed) return;
    if (this.#sink) return this.#sink(event);
    if (event.type !== 'text_delta' || !joinTextDelta(this.#queue.at(-1), event)) this.#queue.push(event);
    this.#notify();
  }

  /** No more events; the reader drains what is queued, then ends. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#sink?.(null);
    this.#notify();
  }

  /**
   * Hand every event, synchronously as it is pushed, to `sink` instead of a reader
   * (`null` once closed): for a sink that batches on its own, such as a port.
   */
  pipe(sink: (event: RunEvent | null) => void): void {
    for (const event of this.#queue.splice(0)) sink(event);
    if (this.#closed) sink(null);
    else this.#sink = sink;
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** Everything queued now (waiting for at least one event), or null once closed and drained. */
  async #take(): Promise<RunEvent[] | null> {
    while (this.#queue.length === 0) {
      if (this.#closed) return null;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
    const batch = this.#queue;
    this.#queue = [];
    return batch;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<RunEvent> {
    if (this.#reading) throw new AmbiError('events_busy', "A run's events have one reader at a time, and another is reading them");
    this.#reading = true;
    // Each batch is handed over and forgotten, so a slow reader holds no history.
    let batch: RunEvent[] = [];
    let at = 0;
    try {
      for (;;) {
        if (at === batch.length) {
          const next = await this.#take();
          if (!next) return;
          [batch, at] = [next, 0];
        }
        yield batch[at++]!;
      }
    } finally {
      // A reader that broke out early: what it had not read goes back in front, for the next one.
      if (at < batch.length) this.#queue = batch.slice(at).concat(this.#queue);
      this.#reading = false;
    }
  }
}
