import type { RunEvent } from '../runner/events.js';
import type { JsonValue } from '../tools/types.js';
import type { PageToWorker, ToolInvoker, WireContext, WorkerToPage } from './protocol.js';
import { sessionLink } from './session-link.js';
import { cloneableReason, fromWireError } from './wire-error.js';

/** Queued text that is sent at once rather than waiting for a ride. */
const FLUSH_TEXT = 64 * 1024;

/**
 * The runner worker's end of the session link. A call is one message each way; a
 * cancel is a message only when a call's signal aborts (no port per call, nothing to leak).
 */
export class WorkerPort {
  #next = 0;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();

  #outbox: Array<[string, RunEvent[] | null]> = [];
  #outboxText = 0;
  /** At the next task: send the events nothing else carried. */
  readonly #flush = () => {
    this.#flushing = false;
    if (this.#outbox.length > 0) this.#post({ t: 'events' });
  };
  #flushing = false;

  readonly #send: (message: WorkerToPage) => void;

  constructor(target: Parameters<typeof sessionLink>[0]) {
    this.#send = sessionLink<PageToWorker, WorkerToPage>(target, (message) => {
      const pending = this.#pending.get(message.id);
      if (!pending) return; // a late answer to a call that already ended here
      this.#pending.delete(message.id);
      if (message.ok) pending.resolve(message.value);
      else pending.reject(fromWireError(message.error));
    });
  }

  /** How the worker's ToolManager reaches the page tool `tool`. */
  invoker(tool: string): ToolInvoker {
    return {
      call: (args, ctx, signal) => this.#call(tool, args, ctx, signal),
      needsApproval: (args) => this.#request<boolean>({ t: 'ask', id: this.#next++, tool, args }),
    };
  }

  /**
   * Queue one of a run's events (`null` ends them). Queued events ride on the next
   * message to the page (a tool call, typically) or go on their own at the next task:
   * one message per step instead of one per event. Consecutive text deltas merge; a
   * long text goes at once, in slices the page takes between other work.
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
      if (previous?.type === 'text_delta' && previous.leafId === event.leafId) previous.text += piece;
      else this.#queue(runId, { ...event, text: piece });
      this.#outboxText += piece.length;
      if (this.#outboxText >= FLUSH_TEXT) this.#post({ t: 'events' });
    }
  }

  #queue(runId: string, event: RunEvent | null): void {
    const last = this.#outbox.at(-1);
    if (event && last?.[0] === runId && last[1]) last[1].push(event);
    else this.#outbox.push([runId, event && [event]]);
    if (!this.#flushing) {
      this.#flushing = true;
      setTimeout(this.#flush, 0);
    }
  }

  #call(tool: string, args: unknown, ctx: WireContext, signal: AbortSignal): Promise<JsonValue> {
    const id = this.#next++;
    const onAbort = () => this.#post({ t: 'abort', id, reason: cloneableReason(signal.reason) });
    signal.addEventListener('abort', onAbort, { once: true });
    const settled = this.#request<JsonValue>({ t: 'call', id, tool, args, ctx });
    void settled.then(
      () => signal.removeEventListener('abort', onAbort),
      () => signal.removeEventListener('abort', onAbort),
    );
    return settled;
  }

  #request<T>(message: Extract<WorkerToPage, { id: number }>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(message.id, { resolve: resolve as (value: unknown) => void, reject });
      this.#post(message);
    });
  }

  #post(message: WorkerToPage): void {
    if (this.#outbox.length > 0) {
      message.events = this.#outbox;
      this.#outbox = [];
      this.#outboxText = 0;
    }
    this.#send(message);
  }
}
