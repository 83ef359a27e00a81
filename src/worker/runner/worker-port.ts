import { joinTextDelta, type RunEvent } from '../../runner/events.js';
import type { AbortSource } from '../../util/abort-source.js';
import type { JsonValue } from '../../core/types.js';
import { ABORT, ASK, CALL, DONE, EVENTS, type PageToWorker, type ToolInvoker, type WorkerToPage } from '../wire/protocol.js';
import { sessionLink } from '../wire/session-link.js';
import { fromWireError, toWireReason } from '../wire/wire-error.js';
import { packEvents } from '../wire/event-codec.js';

/** Queued text that is sent at once rather than waiting for the next batch. */
const FLUSH_TEXT = 64 * 1024;
/** How long events wait to go out together. */
const BATCH_MS = 2;

/**
 * The runner worker's end of the session link. A call (or an approval rule's ask) is one
 * message each way; a cancel is a message only when its abort fires (no port per call, nothing to leak).
 * Run events go in batches, on their own messages: carried on a call, they made every
 * call's message slower to post and to read, and the page's answer waited on that.
 */
export class WorkerPort {
  #next = 0;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void; settled: (() => void) | undefined }>();

  #outbox: Array<[string, RunEvent[] | null]> = [];
  #outboxText = 0;
  /** When the queued batch's first event came (`performance.now()`). */
  #since = 0;
  /** The batch's timer, while one is set. */
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #timeUp = () => {
    this.#timer = undefined;
    this.#flush();
  };
  #flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#outbox.length === 0) return;
    const queued = this.#outbox;
    this.#outbox = [];
    this.#outboxText = 0;
    this.#send([EVENTS, queued.map(([runId, events]) => [runId, events && packEvents(events, [])])]);
  }

  readonly #send: (message: WorkerToPage) => void;

  constructor(target: Parameters<typeof sessionLink>[0]) {
    this.#send = sessionLink<PageToWorker, WorkerToPage>(target, (message) => {
      const id = message[1];
      const pending = this.#pending.get(id);
      if (!pending) return; // a late answer to a call that already ended here
      this.#pending.delete(id);
      pending.settled?.();
      if (message[0] === DONE) pending.resolve(message[2]);
      else pending.reject(fromWireError(message[2]));
    });
  }

  /** How the worker's ToolManager reaches the page tool `tool`. */
  invoker(tool: string): ToolInvoker {
    return {
      call: (args, ctx, abort) => this.#request<JsonValue>([CALL, this.#next++, tool, args, ctx.callId, ctx.attempt, ctx.idempotencyKey], abort),
      needsApproval: (args, abort) => this.#request<boolean>([ASK, this.#next++, tool, args], abort),
    };
  }

  /**
   * Queue one of a run's events (`null` ends them). Queued events go out together within
   * BATCH_MS: one message per batch instead of one per event. Consecutive text deltas
   * merge; a long text goes at once, in slices the page takes between other work.
   */
  event(runId: string, event: RunEvent | null): void {
    if (event?.type === 'text_delta') return this.#text(runId, event);
    this.#queue(runId, event);
  }

  #text(runId: string, event: Extract<RunEvent, { type: 'text_delta' }>): void {
    for (let at = 0; at < event.text.length; at += FLUSH_TEXT) {
      const piece = event.text.slice(at, at + FLUSH_TEXT);
      const last = this.#outbox.at(-1);
      const previous = last?.[0] === runId ? last[1]?.at(-1) : undefined;
      if (!joinTextDelta(previous, event, piece)) this.#queue(runId, { ...event, text: piece });
      this.#outboxText += piece.length;
      if (this.#outboxText >= FLUSH_TEXT) this.#flush();
    }
  }

  #queue(runId: string, event: RunEvent | null): void {
    const last = this.#outbox.at(-1);
    if (event && last?.[0] === runId && last[1]) last[1].push(event);
    else this.#outbox.push([runId, event && [event]]);
    if (this.#timer !== undefined) return;
    // The batch's first event. With a request out, the next call most likely follows its answer:
    // the batch goes right after the first call posted once its time is up, while the page runs
    // that call, instead of waking the page (and this thread, for a timer) on its own. The timer
    // is only for a batch no call comes to take: one interval later.
    this.#since = performance.now();
    this.#timer = setTimeout(this.#timeUp, this.#pending.size > 0 ? 2 * BATCH_MS : BATCH_MS);
  }

  /** A call or an ask ends here when its abort fires: the page is told, and its late answer, if any, is dropped. */
  #request<T>(message: Extract<WorkerToPage, [typeof CALL | typeof ASK, ...unknown[]]>, abort: AbortSource): Promise<T> {
    if (abort.aborted) return Promise.reject(abort.reason);
    const id = message[1];
    return new Promise<T>((resolve, reject) => {
      const unhook = abort.onAbort(() => {
        this.#pending.delete(id);
        this.#send([ABORT, id, toWireReason(abort.reason)]);
        reject(abort.reason);
      });
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject, settled: unhook });
      this.#send(message);
      if (this.#outbox.length > 0 && performance.now() - this.#since >= BATCH_MS) this.#flush();
    });
  }
}
