// The page's end of a traced WorkerRunner run: the runner worker's traces extension makes the run's
// spans (the SpanBuilder, as in-process) and records them (RecordingTracer); here the records become
// the tracer's own spans, under what was active where `run()` was called. Each batch is answered
// with the contexts of the spans it started. Loaded by the page only for a run given a tracer, with
// `@opentelemetry/api` (an optional peer). Whatever the tracer does, tracing stops and `warn` hears
// why once: the run never fails for it.
import type { Context, Span, Tracer } from '@opentelemetry/api';
import { errorMessage } from '../../errors/error-message.js';
import type { RunFailure } from '../../core/run.js';
import type { RecordedContext, SpanRecord, SpanSink } from './span-records.js';

type Api = typeof import('@opentelemetry/api');

export class SpanExport implements SpanSink {
  readonly #tracer: Tracer;
  readonly #warn: (message: string) => void;
  /** The API and the context the run was started in, once loaded (undefined: it could not be). */
  readonly #ready: Promise<{ api: Api; parent: Context } | undefined>;
  #chain: Promise<unknown> = Promise.resolve();
  readonly #spans = new Map<number, Span>();
  #broken = false;

  constructor(tracer: unknown, warn: (message: string) => void) {
    this.#tracer = tracer as Tracer;
    this.#warn = warn;
    this.#ready = import('@opentelemetry/api').then(
      (api) => ({ api, parent: api.context.active() }),
      (error: unknown) => {
        this.#broken = true;
        warn(`The run is not traced: @opentelemetry/api could not be loaded (${errorMessage(error)})`);
        return undefined;
      },
    );
  }

  /** Take a batch of records, in order after the ones before it. */
  take(records: SpanRecord[]): Promise<Array<[number, RecordedContext | null]>> {
    const done = this.#chain.then(() => this.#apply(records));
    this.#chain = done.catch(() => {});
    return done;
  }

  /** End what is still open (the runner worker died mid-run), with the run's failure. */
  endAll(failure: RunFailure): void {
    void this.#chain.then(async () => {
      const ready = await this.#ready;
      this.#safely(() => {
        for (const span of this.#spans.values()) {
          span.setStatus({ code: ready?.api.SpanStatusCode.ERROR ?? 2, message: `${failure.code}: ${failure.message}`.slice(0, 200) });
          span.end();
        }
      });
      this.#spans.clear();
    });
  }

  async #apply(records: SpanRecord[]): Promise<Array<[number, RecordedContext | null]>> {
    const ready = await this.#ready;
    const contexts: Array<[number, RecordedContext | null]> = [];
    if (!ready) return contexts;
    for (const record of records) this.#safely(() => this.#one(ready.api, ready.parent, record, contexts));
    return contexts;
  }

  #one(api: Api, root: Context, record: SpanRecord, contexts: Array<[number, RecordedContext | null]>): void {
    if (record.op === 'start') {
      const parent = record.parent !== undefined ? this.#spans.get(record.parent) : undefined;
      const context = parent ? api.trace.setSpan(root, parent) : root;
      const span = this.#tracer.startSpan(record.name, { kind: record.kind, attributes: record.attributes, startTime: record.time }, context);
      this.#spans.set(record.id, span);
      const made = span.spanContext();
      const state = made.traceState?.serialize();
      contexts.push([
        record.id,
        api.trace.isSpanContextValid(made)
          ? { traceId: made.traceId, spanId: made.spanId, traceFlags: made.traceFlags, ...(state ? { traceState: state } : {}) }
          : null,
      ]);
      return;
    }
    const span = this.#spans.get(record.id);
    if (!span) return;
    if (record.op === 'set') span.setAttributes(record.attributes);
    else if (record.op === 'event') span.addEvent(record.name, record.attributes, record.time);
    else if (record.op === 'status') span.setStatus(record.message !== undefined ? { code: record.code, message: record.message } : { code: record.code });
    else {
      span.end(record.time);
      this.#spans.delete(record.id);
    }
  }

  #safely(work: () => void): void {
    if (this.#broken) return;
    try {
      work();
    } catch (error) {
      this.#broken = true;
      this.#warn(`Tracing stopped, the run goes on: ${errorMessage(error)}`);
    }
  }
}
