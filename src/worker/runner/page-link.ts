import type * as Comlink from 'comlink';
import type { RunEvent } from '../../core/run.js';
import type { CallTarget } from '../../core/types.js';
import type { ServedOutput } from '../../call/served-output.js';
import { joinTextDelta } from '../../runner/events.js';
import {
  ANSWERED,
  type AnswerMessage,
  CALL,
  type CallMessage,
  EVENTS,
  type EventBatch,
  type EventsMessage,
  FAILED,
  type PageHostApi,
  type WireContext,
} from '../wire/protocol.js';
import { errorMessage } from '../../errors/error-message.js';
import { fromWireError, isWireError, type WireReason } from '../wire/wire-error.js';
import { AmbiError } from '../../errors/ambi-error.js';
import { EventPacker } from '../wire/event-codec.js';
import type { PromptApiAccess, PromptApiAvailability, PromptApiCoreOptions, PromptApiEvent, PromptApiRequest } from '../../engines/prompt-api/access.js';

/**
 * How often run events cross at most: one message, one task on the page, per batch instead of
 * per event. A frame at 60 Hz: a page shows nothing sooner than it paints, and each message wakes
 * its main thread. The first event after a quiet batch time goes at once (on the next task).
 */
export const BATCH_MS = 16;
/** Queued text that goes at once rather than waiting for the batch's time. */
const FLUSH_TEXT = 64 * 1024;

/** A call sent to the page, waiting for its answer. */
interface Waiting {
  callId: string;
  resolve(output: ServedOutput): void;
  reject(error: unknown): void;
}

/**
 * The runner worker's link to the page: a page tool's call goes out as one CallMessage on the
 * channel and its answer comes back as one AnswerMessage (a call is the hot path: no Comlink
 * request per call); rules, targets and aborts go as Comlink calls, and run events in batches
 * (consecutive text deltas merged) within BATCH_MS, or at once for a long text.
 */
export class PageLink implements PageHostApi {
  #outbox: EventBatch = [];
  #outboxText = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** When the last batch went (performance.now()). */
  #sentAt = Number.NEGATIVE_INFINITY;
  /** Calls sent, by key: an answer for a key not here (a second one, an unknown one) is dropped. */
  readonly #waiting = new Map<number, Waiting>();
  readonly #packer: EventPacker;

  constructor(
    readonly page: Comlink.Remote<PageHostApi>,
    /** The channel both Comlink ends use; the calls' messages share it. */
    readonly endpoint: Comlink.Endpoint,
    /** The page follows every run of this runner (a dedicated one): it keeps its answers, which need not cross back (see event-codec.ts). */
    keepsAnswers = false,
  ) {
    this.#packer = new EventPacker(keepsAnswers);
    endpoint.addEventListener('message', (event) => {
      const data = (event as MessageEvent).data as unknown;
      if (Array.isArray(data) && (data[0] === ANSWERED || data[0] === FAILED)) this.#answer(data as AnswerMessage);
    });
  }

  call(tool: string, args: unknown, ctx: WireContext, key: number): Promise<ServedOutput> {
    const message: CallMessage = [CALL, key, tool, args, ctx.callId, ctx.attempt, ctx.idempotencyKey];
    if (ctx.target) message.push(ctx.target);
    return new Promise((resolve, reject) => {
      this.#waiting.set(key, { callId: ctx.callId, resolve, reject });
      this.endpoint.postMessage(message);
    });
  }

  /** The page's answer to a call: taken once, for a call still waiting (the page cannot answer twice, nor answer what was not asked). */
  #answer(message: AnswerMessage): void {
    const key = message[1];
    const waiting = typeof key === 'number' ? this.#waiting.get(key) : undefined;
    if (!waiting) return;
    this.#waiting.delete(key);
    if (message[0] === FAILED)
      waiting.reject(
        isWireError(message[2]) ? fromWireError(message[2]) : new AmbiError('internal_error', 'The page answered a call with a failure that is not one'),
      );
    else {
      this.#packer.answered(waiting.callId, message[2]);
      waiting.resolve(message[2]);
    }
  }

  needsApproval(tool: string, args: unknown, key: number): Promise<boolean> {
    return this.page.needsApproval(tool, args, key);
  }

  target(tool: string, args: unknown, key: number): Promise<CallTarget> {
    return this.page.target(tool, args, key) as Promise<CallTarget>;
  }

  abort(key: number, reason: WireReason): void {
    // The attempt stopped waiting: a late answer is dropped, and a tool that never answers leaves nothing here.
    this.#waiting.delete(key);
    // The page may be gone with the worker: nobody is waiting for this answer.
    void this.page.abort(key, reason).catch(() => {});
  }

  promptApiAvailability(options: PromptApiCoreOptions): Promise<PromptApiAvailability> {
    return this.page.promptApiAvailability(options) as Promise<PromptApiAvailability>;
  }

  promptApi(request: PromptApiRequest): Promise<ReadableStream<PromptApiEvent>> {
    return this.page.promptApi(request) as Promise<ReadableStream<PromptApiEvent>>;
  }

  /** The page's `LanguageModel`, as the Prompt API engine uses one (a worker has none of its own). */
  promptApiAccess(): PromptApiAccess {
    return { availability: (options) => this.promptApiAvailability(options), prompt: (request) => this.promptApi(request) };
  }

  /** Queue one of a run's events (`null` ends them). */
  event(runId: string, event: RunEvent | null): void {
    if (event?.type === 'text_delta') return this.#text(runId, event);
    this.#queue(runId, event);
    if (event === null) this.flush();
    else this.#schedule();
  }

  /** A text delta, merged with the one before it; a long text goes at once, in slices the page takes between other work. */
  #text(runId: string, event: Extract<RunEvent, { type: 'text_delta' }>): void {
    for (let at = 0; at < event.text.length; at += FLUSH_TEXT) {
      const piece = event.text.slice(at, at + FLUSH_TEXT);
      const last = this.#outbox.at(-1);
      const previous = last?.[0] === runId ? last[1]?.at(-1) : undefined;
      if (!joinTextDelta(Array.isArray(previous) ? undefined : previous, event, piece)) this.#queue(runId, { ...event, text: piece });
      this.#outboxText += piece.length;
      if (this.#outboxText >= FLUSH_TEXT) this.flush();
    }
    if (this.#outbox.length > 0) this.#schedule();
  }

  /** Send what is queued BATCH_MS after the last batch went (at once after a quiet time). */
  #schedule(): void {
    this.#timer ??= setTimeout(() => this.flush(), Math.max(0, this.#sentAt + BATCH_MS - performance.now()));
  }

  /** Send what is queued now. */
  flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#outbox.length === 0) return;
    const batch = this.#outbox;
    this.#outbox = [];
    this.#outboxText = 0;
    this.#sentAt = performance.now();
    this.#post([EVENTS, batch]);
  }

  /**
   * Post a batch; one that will not clone (an event holding something that cannot cross) goes
   * event by event, each that will not clone replaced by a warning, so the others and the run's
   * end still arrive.
   */
  #post(message: EventsMessage): void {
    try {
      this.endpoint.postMessage(message);
    } catch {
      for (const [runId, events] of message[1]) {
        for (const event of events ?? [null]) {
          try {
            this.endpoint.postMessage([EVENTS, [[runId, event && [event]]]]);
          } catch (error) {
            const warning: RunEvent = {
              type: 'warning',
              code: 'event_uncloneable',
              message: `A run event could not cross to the page: ${errorMessage(error)}`,
            };
            this.endpoint.postMessage([EVENTS, [[runId, [warning]]]]);
          }
        }
      }
    }
  }

  #queue(runId: string, event: RunEvent | null): void {
    const wire = this.#packer.pack(runId, event);
    const last = this.#outbox.at(-1);
    if (wire && last?.[0] === runId && last[1]) last[1].push(wire);
    else this.#outbox.push([runId, wire && [wire]]);
  }
}
