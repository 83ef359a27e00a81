import type { RunEvent, RunResult } from '../../core/run.js';
import { AmbiError } from '../../errors/ambi-error.js';
import { errorMessage } from '../../errors/error-message.js';
import type { EventChannel } from '../../runner/events.js';
import { failureError, type RunFailure } from '../../runner/run-failure.js';
import type { TraceContext } from '../../tools/types.js';
import type { StandardSchemaV1 } from '../../validation/standard-schema.js';
import { finishOnPage } from './page-output.js';
import type { PageTrace } from './page-trace.js';

/** A run as the page tracks it: its events arrive from the runner worker, and they settle its result. */
export interface PageRun {
  channel: EventChannel;
  resolve: (result: RunResult) => void;
  reject: (error: unknown) => void;
  /** Stops listening to the caller's signal. */
  unhook?: () => void;
  /** A Standard Schema output, parsed on the page before the run's result is given. */
  standard?: StandardSchemaV1;
  /** Events wait behind this while the page parses the final answer. */
  pending?: Promise<void>;
  /** The run's spans, made here from its events (a run given a tracer). */
  trace?: PageTrace;
}

/**
 * The runs of a WorkerRunner, as the page follows them: the runner worker's event batches are
 * delivered to each run's channel in order, and its own last event settles its result.
 */
export class PageRuns {
  readonly #runs = new Map<string, PageRun>();

  has(runId: string): boolean {
    return this.#runs.has(runId);
  }

  add(runId: string, run: PageRun): void {
    this.#runs.set(runId, run);
  }

  /** The trace context of a call of run `runId` (a traced run's MCP call asks for it). */
  traceContext(runId: string, callId: string): TraceContext | undefined {
    return this.#runs.get(runId)?.trace?.traceContext(callId);
  }

  /** A batch of events from the runner worker (null: the run's events end), with when the worker emitted each (`times`, for the spans). */
  receive(runId: string, events: RunEvent[] | null, times?: readonly number[]): void {
    const run = this.#runs.get(runId);
    if (!run) return;
    if (run.pending) run.pending = run.pending.then(() => this.#deliver(runId, run, events, times));
    else this.#deliver(runId, run, events, times);
  }

  #deliver(runId: string, run: PageRun, events: RunEvent[] | null, times?: readonly number[]): void {
    if (events === null) return this.end(runId, run);
    // Indexed, not `entries()`: no [index, event] pair made per event.
    for (let at = 0; at < events.length; at++) {
      const event = events[at]!;
      const { standard } = run;
      if (standard && !event.leafId && event.type === 'run_finished') {
        // The rest of the batch, and later batches, wait until the answer is parsed here.
        const rest = events.slice(at + 1);
        run.standard = undefined;
        run.pending = finishOnPage(standard, event).then((final) => this.#deliver(runId, run, [final, ...rest], times?.slice(at)));
        return;
      }
      run.trace?.event(event, times?.[at]);
      run.channel.push(event);
      if (event.leafId) continue;
      if (event.type === 'run_finished') run.resolve(event.result);
      if (event.type === 'run_failed') run.reject(failureError(event.error));
    }
  }

  /** Close a run's events (with a `run_failed` first, which also settles its result, when the worker is gone) and forget it. */
  end(runId: string, run: PageRun, failure?: RunFailure): void {
    if (this.#runs.get(runId) !== run) return;
    this.#runs.delete(runId);
    run.unhook?.();
    if (failure) {
      run.trace?.event({ type: 'run_failed', error: failure });
      run.channel.push({ type: 'run_failed', error: failure });
      run.reject(new AmbiError(failure.code, failure.message));
    }
    run.channel.close();
  }

  /**
   * Follow every run again on another runner (another tab leads a shared runner): `attach` asks
   * it for each; a run it does not have ends with why.
   */
  reattach(attach: (runId: string) => Promise<void>): void {
    for (const [runId, run] of this.#runs) {
      attach(runId).catch((error: unknown) =>
        this.end(runId, run, {
          code: 'leader_gone',
          message: `The tab that led the runner closed and run ${runId} could not be resumed: ${errorMessage(error)}`,
        }),
      );
    }
  }

  /** End every run with `failure` (the runner closed, or its worker died). */
  endAll(failure: RunFailure): void {
    for (const [runId, run] of this.#runs) this.end(runId, run, failure);
  }
}
