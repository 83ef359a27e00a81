import type { RunEvent } from '../../core/run.js';
import type { EngineConfig } from '../../engines/config.js';
import { errorMessage } from '../../errors/error-message.js';
import type { RunTracer } from '../../runner/run-options.js';
import type { TraceContext } from '../../tools/types.js';

/** What the page needs of the span builder (its code loads only for a traced run). */
interface Spans {
  event(event: RunEvent, at?: number): void;
  traceContext(callId: string): TraceContext | undefined;
}

/**
 * The tracing of one WorkerRunner run, on the page: its spans are made here, from the run's events
 * as they arrive, by the builder in-process runs use. `ready` settles (never rejects) once the
 * builder is loaded and the run's span open; the run starts in the worker only then, so no event
 * comes before it. A tracing that cannot start or that fails says so once, with `warn`.
 */
export class PageTrace {
  #spans: Spans | undefined;
  readonly ready: Promise<void>;

  constructor(tracer: RunTracer, engine: EngineConfig, conversation: string | undefined, warn: (event: RunEvent) => void) {
    const failed = (error: unknown) => warn({ type: 'warning', code: 'trace_failed', message: `Tracing stopped, the run goes on: ${errorMessage(error)}` });
    this.ready = import('../../extensions/traces/page-spans.js')
      .then(({ pageSpans }) => pageSpans(tracer, engine, conversation, failed))
      .then(
        (spans) => void (this.#spans = spans),
        (error: unknown) =>
          warn({ type: 'warning', code: 'trace_failed', message: `The run is not traced: @opentelemetry/api could not be loaded (${errorMessage(error)})` }),
      );
  }

  /** One of the run's events, emitted in the worker `at` (ms since the epoch; when it was not said, now). */
  event(event: RunEvent, at?: number): void {
    this.#spans?.event(event, at);
  }

  /** The trace context of call `callId` (asked by the worker for an MCP call): its events came before the question, on the same channel. */
  traceContext(callId: string): TraceContext | undefined {
    return this.#spans?.traceContext(callId);
  }
}
