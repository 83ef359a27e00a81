import * as Comlink from 'comlink';
import type { RunEvent, RunResult } from '../../core/run.js';
import { AmbiError, isAmbiError } from '../../errors/ambi-error.js';
import { errorMessage } from '../../errors/error-message.js';
import type { SpanExport } from '../../extensions/traces/span-export.js';
import { EventChannel } from '../../runner/events.js';
import { failureError, type RunFailure } from '../../runner/run-failure.js';
import type { Run, RunOptions } from '../../runner/run-options.js';
import { onAbort } from '../../util/abort-source.js';
import type { SpanSink } from '../../extensions/traces/span-records.js';
import type { OutputCheck } from '../wire/protocol.js';
import { toWireReason } from '../wire/wire-error.js';
import { PageOutput } from './page-output.js';
import { refusedRun } from './refused-run.js';
import { InvalidOptionError } from '../../errors/invalid-option-error.js';
import { crossingApproval } from './crossing-approval.js';
import type { StandardSchemaV1 } from '../../validation/standard-schema.js';
import type { RunnerWorkerApi } from '../wire/protocol.js';

/** A run as the page tracks it: its events arrive from the runner worker, and they settle its result. */
interface PageRun {
  channel: EventChannel;
  resolve: (result: RunResult) => void;
  reject: (error: unknown) => void;
  /** Stops listening to the caller's signal. */
  unhook?: () => void;
  /** A Standard Schema output: the worker asks it about each answer; the result gets its parsed value. */
  output?: PageOutput;
  /** A traced run's exporter: the spans the worker records become the tracer's here. */
  spans?: SpanExport;
}

/** What starting a run needs of its WorkerRunner. */
export interface RunStarter {
  api: Comlink.Remote<RunnerWorkerApi>;
  /** The worker set up and its tools registered; rejects with a refusal of the page's tools. */
  ready(): Promise<void>;
  guard<T>(call: Promise<T>): Promise<T>;
}

/** Who the worker asks about a run: the page's ends of what the run took that cannot be cloned (see WireRunOptions). */
type Begin = (runId: string, spans: SpanSink | undefined, output: OutputCheck | undefined) => Promise<void>;

/**
 * The runs of a WorkerRunner, as the page follows them: each started here (its tracer's exporter
 * and its schema stay here, reached by the worker over Comlink), its event batches delivered to its
 * channel in order, and its own last event settling its result.
 */
export class PageRuns {
  readonly #runs = new Map<string, PageRun>();

  /** A run or a resume, tracked here: `begin` asks the worker to start it under its id. */
  start(starter: RunStarter, options: Pick<RunOptions, 'runId' | 'signal' | 'tracer'>, standard: StandardSchemaV1 | undefined, begin: Begin): Run {
    const runId = options.runId ?? crypto.randomUUID();
    // Runs are told apart by id on both ends of the wire: a second one would take the first one's events.
    if (this.#runs.has(runId)) return refusedRun(runId, new AmbiError('duplicate_run', `A run with id "${runId}" is still going on this runner`));
    const channel = new EventChannel();
    let run!: PageRun;
    // The result crosses once, inside the run's own run_finished (or run_failed) event.
    const result = new Promise<RunResult>((resolve, reject) => (run = { channel, resolve, reject, ...(standard ? { output: new PageOutput(standard) } : {}) }));
    result.catch(() => {});
    this.#runs.set(runId, run);
    const warn = (message: string) => channel.push({ type: 'warning', code: 'trace_failed', message });
    const started = Promise.all([starter.ready(), options.tracer ? spanExport(options.tracer, warn) : undefined]).then(([, spans]) => {
      if (spans) run.spans = spans;
      const sink = spans && Comlink.proxy(spans);
      return starter.guard(begin(runId, sink, run.output && Comlink.proxy(run.output)));
    });
    // A run that fails to start (or a worker that dies first) still ends its events.
    started.catch((error: unknown) => {
      run.reject(error);
      this.end(runId, run, { code: isAmbiError(error) ? error.code : 'worker_crashed', message: errorMessage(error) });
    });
    const send = (action: () => Promise<void>) => void started.then(action).catch(() => {});
    const { api, guard } = starter;
    const abort = (reason?: unknown) => send(() => guard(api.abort(runId, toWireReason(reason))));
    const signal = options.signal;
    if (signal?.aborted) abort(signal.reason);
    else if (signal) run.unhook = onAbort(signal, () => abort(signal.reason));
    return {
      runId,
      events: channel,
      result,
      abort,
      suspend: () => send(() => guard(api.suspend(runId))),
      approve: (callId, approveOptions) => send(() => guard(api.approve(runId, callId, crossingApproval(approveOptions)))),
      deny: (callId, reason, denyOptions) => send(() => guard(api.deny(runId, callId, reason, denyOptions))),
    };
  }

  /**
   * Follow run `runId` of a shared runner (another tab's, or this tab's page's before a reload):
   * its state so far, then its events, each once; approvals decided once, whichever tab answers.
   * An empty id is `invalid_option`, one no run has `unknown_run`, a run followed `duplicate_run`.
   */
  attach(starter: RunStarter, runId: unknown): Run {
    if (typeof runId !== 'string' || runId.length === 0)
      return refusedRun(String(runId), new InvalidOptionError('runId', 'attach() takes the id of a run (a non-empty string)'));
    return this.start(starter, { runId }, undefined, (id) => starter.api.attach(id));
  }

  /** A batch of events from the runner worker (null: the run's events end). */
  receive(runId: string, events: RunEvent[] | null): void {
    const run = this.#runs.get(runId);
    if (!run) return;
    if (events === null) return this.end(runId, run);
    // Indexed, not `entries()`: no [index, event] pair made per event.
    for (let at = 0; at < events.length; at++) {
      let event = events[at]!;
      if (!event.leafId && event.type === 'run_finished' && run.output) event = run.output.finished(event);
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
      run.spans?.endAll(failure);
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

/** The page's exporter of a traced run's spans, its code loaded for such a run only. */
async function spanExport(tracer: unknown, warn: (message: string) => void): Promise<SpanExport> {
  const { SpanExport } = await import('../../extensions/traces/span-export.js');
  return new SpanExport(tracer, warn);
}
