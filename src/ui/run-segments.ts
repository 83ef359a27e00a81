import { isAmbiError } from '../errors/ambi-error.js';
import type { Run } from '../runner/run-options.js';
import { joinTextDelta, type RunEvent } from '../runner/events.js';
import { errorMessage } from '../errors/error-message.js';
import { RunWatch, type WaitingCall } from './run-watch.js';

/** A person's answer to a call that waits for approval, as a UI hands it over. */
export type Decision = { approved: true; arguments?: unknown } | { approved: false; reason?: string };

/** How a segment ended: the run settled, it waits for a person, or a newer segment took over. */
export type SegmentEnd =
  | { type: 'segment_end'; reason: 'settled' }
  | { type: 'segment_end'; reason: 'waiting'; waiting: WaitingCall[] }
  | { type: 'segment_end'; reason: 'detached' };

/**
 * A run's events, read once and handed out in segments: what one AI SDK response or one AG-UI
 * run carries. A segment ends when the run settles, or when it waits for a person with nothing
 * else going on (`RunWatch.blocked`); events that arrive between segments wait for the next one.
 * Decisions go through here so the watch knows a call is no longer waiting before the run says so.
 */
export class RunSegments {
  readonly watch = new RunWatch();
  readonly #queue: RunEvent[] = [];
  readonly #wakers = new Set<() => void>();
  /** Calls decided through here, and decisions for calls that have not asked yet (a resumed run asks again). */
  readonly #decided = new Set<string>();
  readonly #early = new Map<string, Decision>();
  #settled = false;
  /** The reader whose segment is current; an older one ends `detached`. */
  #reader = 0;

  constructor(readonly run: Run) {
    void this.#pump();
  }

  /** True once the run's events have ended (they may still wait in the queue). */
  get settled(): boolean {
    return this.#settled;
  }

  /** True once every event of the run has been handed to a segment. */
  get drained(): boolean {
    return this.#settled && this.#queue.length === 0;
  }

  /**
   * The next segment; a segment still being read ends (`detached`) at its next step, and so
   * does this one once `detach` aborts (its reader went away: what follows waits for the next).
   */
  next(detach?: AbortSignal): AsyncGenerator<RunEvent | SegmentEnd, void> {
    const token = ++this.#reader;
    detach?.addEventListener('abort', () => this.#notify(), { once: true });
    this.#notify();
    return this.#read(token, detach);
  }

  /** Decide a call that waits now; false when none with that id does. */
  decide(callId: string, decision: Decision): boolean {
    if (!this.watch.isWaiting(callId)) return false;
    this.#apply(callId, decision);
    return true;
  }

  /** Decide a call as soon as it asks (at once if it waits already): a resumed run asks again for what waited before a reload. */
  decideWhenAsked(callId: string, decision: Decision): void {
    if (!this.decide(callId, decision)) this.#early.set(callId, decision);
  }

  /** Whether a decision for `callId` went through here. */
  wasDecided(callId: string): boolean {
    return this.#decided.has(callId);
  }

  async #pump(): Promise<void> {
    try {
      for await (const event of this.run.events) this.#take(event);
    } catch (error) {
      // The events could not be read (another reader took them): the segment says why, as a failed run.
      this.#take({ type: 'run_failed', error: { code: isAmbiError(error) ? error.code : 'internal_error', message: errorMessage(error) } });
    } finally {
      this.#settled = true;
      this.#notify();
    }
  }

  #take(event: RunEvent): void {
    this.watch.see(event);
    if (event.type === 'approval_requested') {
      const early = this.#early.get(event.call.id);
      if (early) {
        this.#early.delete(event.call.id);
        this.#apply(event.call.id, early);
      }
    }
    // Unread text deltas merge: memory stays bounded while no segment reads.
    if (event.type !== 'text_delta' || !joinTextDelta(this.#queue.at(-1), event)) this.#queue.push(event);
    this.#notify();
  }

  #apply(callId: string, decision: Decision): void {
    this.#decided.add(callId);
    this.watch.decided(callId);
    if (decision.approved) this.run.approve(callId, decision.arguments !== undefined ? { arguments: decision.arguments } : undefined);
    else this.run.deny(callId, decision.reason);
  }

  async *#read(token: number, detach: AbortSignal | undefined): AsyncGenerator<RunEvent | SegmentEnd, void> {
    for (;;) {
      if (token !== this.#reader || detach?.aborted) {
        yield { type: 'segment_end', reason: 'detached' };
        return;
      }
      const event = this.#queue.shift();
      if (event) {
        yield event;
        continue;
      }
      if (this.#settled) {
        yield { type: 'segment_end', reason: 'settled' };
        return;
      }
      // Judged only once the queue is read: the watch has seen every event the segment delivered, and no later one.
      if (this.watch.blocked()) {
        yield { type: 'segment_end', reason: 'waiting', waiting: this.watch.waiting };
        return;
      }
      await new Promise<void>((resolve) => this.#wakers.add(resolve));
    }
  }

  #notify(): void {
    const wakers = [...this.#wakers];
    this.#wakers.clear();
    for (const wake of wakers) wake();
  }
}
