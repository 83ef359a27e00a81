// A Tracer whose spans are recorded rather than exported here: what the traces extension is given
// for a run whose tracer lives elsewhere (a WorkerRunner's page). The SpanBuilder makes its spans
// as in-process; their operations go to the sink in batches, and each span learns its context from
// the sink's answer (so a call passes on the very span the page exports).
import type { Attributes, Context, Span, SpanContext, SpanOptions, SpanStatus } from '@opentelemetry/api';
import type { OtelApi } from './span-builder.js';
import type { RecordedContext, SpanRecord, SpanSink } from './span-records.js';

/** How long records wait to cross together. */
const BATCH_MS = 2;

/** No context yet (the page has not answered for the span): invalid, so nothing is passed on. */
const UNKNOWN: SpanContext = { traceId: '00000000000000000000000000000000', spanId: '0000000000000000', traceFlags: 0 };

export class RecordingTracer {
  readonly #api: Pick<OtelApi, 'trace'>;
  readonly #sink: SpanSink;
  #next = 0;
  #queued: SpanRecord[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The batches sent and not yet answered. */
  #sent: Promise<unknown> = Promise.resolve();
  readonly #spans = new Map<number, RecordedSpan>();

  constructor(api: Pick<OtelApi, 'trace'>, sink: SpanSink) {
    this.#api = api;
    this.#sink = sink;
  }

  startSpan(name: string, options: SpanOptions = {}, context?: Context): Span {
    const id = this.#next++;
    const parent = context ? this.#api.trace.getSpan(context) : undefined;
    const span = new RecordedSpan(id, (record) => this.#record(record));
    this.#spans.set(id, span);
    this.#record({
      op: 'start',
      id,
      ...(parent instanceof RecordedSpan ? { parent: parent.id } : {}),
      name,
      kind: options.kind ?? 0,
      attributes: { ...options.attributes },
      time: typeof options.startTime === 'number' ? options.startTime : Date.now(),
    });
    return span as unknown as Span;
  }

  /** Send what is recorded and wait for every answer so far: the spans started by then know their contexts. */
  async forceFlush(): Promise<void> {
    this.#flush();
    await this.#sent;
  }

  #record(record: SpanRecord): void {
    this.#queued.push(record);
    this.#timer ??= setTimeout(() => this.#flush(), BATCH_MS);
  }

  #flush(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#queued.length === 0) return;
    const batch = this.#queued;
    this.#queued = [];
    const answered = this.#sink.take(batch).then(
      (contexts) => {
        for (const [id, context] of contexts) this.#spans.get(id)?.known(context);
      },
      () => {}, // the page went away, or stopped tracing: spans keep no context
    );
    this.#sent = Promise.all([this.#sent, answered]);
  }
}

/** A span as the SpanBuilder uses one: each operation recorded, its context once the sink gave it. */
class RecordedSpan {
  #context: SpanContext = UNKNOWN;

  constructor(
    readonly id: number,
    readonly record: (record: SpanRecord) => void,
  ) {}

  known(context: RecordedContext | null): void {
    if (!context) return;
    const { traceId, spanId, traceFlags, traceState } = context;
    this.#context = { traceId, spanId, traceFlags, ...(traceState ? { traceState: stateOf(traceState) } : {}) };
  }

  spanContext(): SpanContext {
    return this.#context;
  }

  setAttribute(key: string, value: Attributes[string]): this {
    this.record({ op: 'set', id: this.id, attributes: { [key]: value } });
    return this;
  }

  setAttributes(attributes: Attributes): this {
    this.record({ op: 'set', id: this.id, attributes: { ...attributes } });
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | number, time?: number): this {
    const attributes = typeof attributesOrTime === 'object' ? attributesOrTime : undefined;
    const at = typeof attributesOrTime === 'number' ? attributesOrTime : (time ?? Date.now());
    this.record({ op: 'event', id: this.id, name, ...(attributes ? { attributes: { ...attributes } } : {}), time: at });
    return this;
  }

  setStatus(status: SpanStatus): this {
    this.record({ op: 'status', id: this.id, code: status.code, ...(status.message !== undefined ? { message: status.message } : {}) });
    return this;
  }

  end(time?: number): void {
    this.record({ op: 'end', id: this.id, time: typeof time === 'number' ? time : Date.now() });
  }

  isRecording(): boolean {
    return true;
  }
}

/** A trace state as SpanBuilder reads one: only its serialization. */
function stateOf(serialized: string): NonNullable<SpanContext['traceState']> {
  return { serialize: () => serialized } as NonNullable<SpanContext['traceState']>;
}
