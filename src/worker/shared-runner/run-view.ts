import type { RunEvent } from '../../core/run.js';
import type { PendingApproval } from '../../store/approval-types.js';
import type { RunInfo } from './protocol.js';

type TextDelta = Extract<RunEvent, { type: 'text_delta' }>;
type Progress = Extract<RunEvent, { type: 'tool_progress' }>;

/**
 * What a runner knows of one of its runs from its events alone: the calls that wait for a person
 * and, for a runner several pages share, the run's events so far, for a page that attaches. The
 * log merges consecutive text deltas and keeps only a call's latest progress, so it grows with
 * what the run produced, never with how finely it streamed it.
 */
export class RunView {
  readonly #waiting = new Map<string, PendingApproval>();
  readonly #log: RunEvent[] | undefined;
  /** Where each call's progress sits in the log, by call id and leaf. */
  readonly #progress = new Map<string, number>();

  constructor(
    readonly runId: string,
    readonly conversation: string | undefined,
    keepLog: boolean,
  ) {
    this.#log = keepLog ? [] : undefined;
  }

  /** The events so far (empty for a view that keeps none). */
  get events(): readonly RunEvent[] {
    return this.#log ?? [];
  }

  /** Take in one of the run's events, as it is emitted. */
  see(event: RunEvent): void {
    this.#watch(event);
    const log = this.#log;
    if (!log) return;
    if (event.type === 'text_delta') return this.#text(log, event);
    if (event.type === 'tool_progress') return this.#latest(log, event);
    log.push(event);
  }

  /** The run as `runner.runs()` lists it. */
  info(): RunInfo {
    const waiting = [...this.#waiting.values()];
    return {
      runId: this.runId,
      ...(this.conversation !== undefined ? { conversation: this.conversation } : {}),
      status: waiting.length > 0 ? 'waiting' : 'running',
      waiting,
    };
  }

  #watch(event: RunEvent): void {
    switch (event.type) {
      case 'approval_requested':
        this.#waiting.set(event.call.id, {
          callId: event.call.id,
          call: event.call,
          ...(event.leafId !== undefined ? { leafId: event.leafId } : {}),
          requestedAt: Date.now(),
        });
        break;
      case 'approval_resolved':
      case 'tool_started':
        this.#waiting.delete(event.callId);
        break;
      case 'tool_finished':
        this.#waiting.delete(event.result.id);
        break;
    }
  }

  /** A text delta joins the logged one before it (a copy: the run's own event is never changed). */
  #text(log: RunEvent[], event: TextDelta): void {
    const last = log.at(-1);
    if (last?.type === 'text_delta' && last.leafId === event.leafId) last.text += event.text;
    else log.push({ ...event });
  }

  #latest(log: RunEvent[], event: Progress): void {
    const key = `${event.leafId ?? ''}\u0000${event.callId}`;
    const at = this.#progress.get(key);
    if (at === undefined) {
      this.#progress.set(key, log.length);
      log.push({ ...event });
    } else log[at] = { ...event };
  }
}
