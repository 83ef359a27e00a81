// What a run's spans are where they are made apart from where they are exported (a WorkerRunner:
// made in the runner worker, exported on the page): records of span operations, plain data, and
// the contexts the exporting side gives back. Types only.
import type { Attributes } from '@opentelemetry/api';

/** One operation on a span, by the span's number in its run. */
export type SpanRecord =
  /** `parent`: the span this one opens under; absent for the run's own span, under what was active where the run was started. */
  | { op: 'start'; id: number; parent?: number; name: string; kind: number; attributes: Attributes; time: number }
  | { op: 'set'; id: number; attributes: Attributes }
  | { op: 'event'; id: number; name: string; attributes?: Attributes; time: number }
  | { op: 'status'; id: number; code: number; message?: string }
  | { op: 'end'; id: number; time: number };

/** A span's W3C context as the exporting side made it: what a call passes on to a server (`traceparent`). */
export interface RecordedContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  traceState?: string;
}

/** Where a run's span records go (a Comlink proxy of the page's exporter): each batch answered with the contexts of the spans it started, by number. */
export interface SpanSink {
  take(records: SpanRecord[]): Promise<Array<[id: number, context: RecordedContext | null]>>;
}
