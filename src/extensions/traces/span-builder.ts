/**
 * A run's OpenTelemetry spans, made from its events: the one builder both paths share (in-process
 * the traces extension feeds it each event as it is emitted; on the page of a WorkerRunner, each
 * event as it arrives from the worker). Spans follow the GenAI semantic conventions:
 *
 *   invoke_agent                 the run (INTERNAL); a leaf's, under the call that started it
 *     chat {model}               each model request (CLIENT): model, token usage, finish reason
 *     execute_tool {tool}        each call (INTERNAL): tool name and call id, attempts, outcome code
 *       invoke_agent             a leaf started by this call (spawn_leaf), and its own spans below
 *
 * A model request's span runs from the end of the step before it (the run's start, or the last
 * turn's end) to its `usage` event, which every request that answers emits; a `usage` event with
 * no request open (a request a tool or an extension made) is a span of its own. Times are those at
 * which the events were emitted (seen, in-process), each after the one before: see `#inOrder`. Whatever the tracer does (a throw, a span that is not one), tracing
 * stops and `onFailure` hears why once: the run never fails for it.
 */
import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { RunEvent } from '../../core/run.js';
import type { ToolResult, Usage } from '../../core/types.js';
import type { EngineInfo } from '../../engines/engine-info.js';
import type { TraceContext } from '../../tools/types.js';

/** What of `@opentelemetry/api` the builder uses (the module itself, loaded only for a traced run). */
export type OtelApi = Pick<typeof import('@opentelemetry/api'), 'trace' | 'context' | 'SpanKind' | 'SpanStatusCode'>;

/** What the spans say of the run besides its events. */
export interface TracedRun {
  engine: EngineInfo;
  conversation?: string | undefined;
}

/** The spans of one run, the top one or a leaf. */
interface RunSpans {
  span: Span;
  context: Context;
  /** When the next model request began (the run's start, the last turn's end), until its span opens. */
  turnStart?: number;
  /** The open model request's span. */
  turn?: Span;
  /** A request that answered, its span waiting for the turn's finish reason to end at `end`. */
  answered?: { span: Span; end: number };
  calls: Set<string>;
}

/** A time as spans take it: milliseconds since the epoch, sub-millisecond where the clock gives it. */
export const now = () => performance.timeOrigin + performance.now();

export class SpanBuilder {
  readonly #api: OtelApi;
  readonly #tracer: Tracer;
  readonly #run: TracedRun;
  readonly #onFailure: (error: unknown) => void;
  #broken = false;
  /** The time of the last event taken (or of the run's start). */
  #last = Number.NEGATIVE_INFINITY;
  /** By leaf id; '' is the top run. */
  readonly #runs = new Map<string, RunSpans>();
  /** Every call's span, by call id (unique within a run and its leaves), kept after it ends for `traceContext`. */
  readonly #calls = new Map<string, Span>();

  constructor(api: OtelApi, tracer: Tracer, run: TracedRun, onFailure: (error: unknown) => void, at = now()) {
    this.#api = api;
    this.#tracer = tracer;
    this.#run = run;
    this.#onFailure = onFailure;
    // The run's span opens now, under whatever span is active where the run was started.
    this.#safely(() => this.#openRun('', this.#api.context.active(), this.#inOrder(at)));
  }

  /** Take one of the run's events, emitted at `at`. */
  event(event: RunEvent, at = now()): void {
    this.#safely(() => this.#take(event, this.#inOrder(at)));
  }

  /** An event's time, after the one before's: a coarse clock (100 µs steps in a browser) ties close events, a worker's may lag the page's. */
  #inOrder(at: number): number {
    this.#last = at > this.#last ? at : this.#last + MIN_STEP_MS;
    return this.#last;
  }

  /** The W3C trace context of call `callId`'s span, once the call was seen; undefined for a tracer whose spans have none. */
  traceContext(callId: string): TraceContext | undefined {
    if (this.#broken) return undefined;
    try {
      const found = this.#calls.get(callId)?.spanContext();
      if (!found || !this.#api.trace.isSpanContextValid(found)) return undefined;
      const traceparent = `00-${found.traceId}-${found.spanId}-${(found.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
      const tracestate = found.traceState?.serialize();
      return tracestate ? { traceparent, tracestate } : { traceparent };
    } catch (error) {
      this.#fail(error);
      return undefined;
    }
  }

  #take(event: RunEvent, at: number): void {
    const key = event.leafId ?? '';
    if (event.type === 'run_started') {
      // A leaf's span opens under the call that started it; the top run's is open already.
      if (key !== '' && !this.#runs.has(key)) this.#openRun(key, this.#parentOf(event.parentCallId), at);
      const run = this.#runs.get(key);
      if (run) run.turnStart = at;
      return;
    }
    const run = this.#runs.get(key) ?? this.#runs.get('');
    if (!run) return;
    switch (event.type) {
      case 'text_delta':
      case 'format_error':
        this.#turnOf(run, at);
        return;
      case 'tool_call':
        this.#turnOf(run, at);
        this.#openCall(run, event.call.id, event.call.name, at);
        return;
      case 'usage':
        return this.#answered(run, event.usage, at);
      case 'iteration_finished':
        if (run.answered) {
          run.answered.span.setAttribute('gen_ai.response.finish_reasons', [event.finishReason]);
          run.answered.span.end(run.answered.end);
          run.answered = undefined;
        }
        run.turnStart = at;
        return;
      case 'approval_requested':
        this.#calls.get(event.call.id)?.addEvent('approval_requested', at);
        return;
      case 'approval_resolved':
        this.#calls
          .get(event.callId)
          ?.addEvent('approval_resolved', { 'ambi.approval.approved': event.approved, 'ambi.approval.standing': event.standing === true }, at);
        return;
      case 'tool_started':
        (this.#calls.get(event.callId) ?? this.#openCall(run, event.callId, event.name, at)).addEvent('attempt', { 'ambi.tool.attempt': event.attempt }, at);
        return;
      case 'tool_retry':
        this.#calls.get(event.callId)?.addEvent('retry', { 'ambi.tool.attempt': event.attempt, 'ambi.tool.retry_delay_ms': event.delayMs }, at);
        return;
      case 'tool_finished':
        return this.#endCall(run, event.result, at);
      case 'warning':
        run.span.addEvent('warning', { 'ambi.warning.code': event.code }, at);
        return;
      case 'run_finished':
        return this.#endRun(key, run, at, undefined, event.result.usage);
      case 'run_failed':
        return this.#endRun(key, run, at, event.error);
      default:
        return;
    }
  }

  #openRun(key: string, parent: Context, at: number): void {
    const { engine, conversation } = this.#run;
    const attributes: Attributes = { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.provider.name': engine.provider };
    if (engine.model !== undefined) attributes['gen_ai.request.model'] = engine.model;
    if (conversation !== undefined) attributes['gen_ai.conversation.id'] = conversation;
    if (key !== '') attributes['ambi.leaf.id'] = key;
    const span = this.#tracer.startSpan('invoke_agent', { kind: this.#api.SpanKind.INTERNAL, attributes, startTime: at }, parent);
    this.#runs.set(key, { span, context: this.#api.trace.setSpan(parent, span), calls: new Set(), turnStart: at });
  }

  /** The context a leaf's span opens in: its call's, or the top run's if that call was never seen. */
  #parentOf(callId: string | undefined): Context {
    const call = callId !== undefined ? this.#calls.get(callId) : undefined;
    const top = this.#runs.get('');
    if (call && top) return this.#api.trace.setSpan(top.context, call);
    return top?.context ?? this.#api.context.active();
  }

  /** The open model request's span, opened (from when the request began) at its first sign. */
  #turnOf(run: RunSpans, at: number): Span {
    if (run.turn) return run.turn;
    const { engine } = this.#run;
    const attributes: Attributes = { 'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': engine.provider };
    if (engine.model !== undefined) attributes['gen_ai.request.model'] = engine.model;
    if (engine.server) {
      attributes['server.address'] = engine.server.address;
      if (engine.server.port !== undefined) attributes['server.port'] = engine.server.port;
    }
    const name = engine.model !== undefined ? `chat ${engine.model}` : 'chat';
    run.turn = this.#tracer.startSpan(name, { kind: this.#api.SpanKind.CLIENT, attributes, startTime: run.turnStart ?? at }, run.context);
    run.turnStart = undefined;
    return run.turn;
  }

  /** A request answered: its usage on its span, which ends with the turn (or now, for a request of its own). */
  #answered(run: RunSpans, usage: Usage, at: number): void {
    const own = !run.turn && run.turnStart === undefined;
    if (own) run.turnStart = at;
    const span = this.#turnOf(run, at);
    run.turn = undefined;
    span.setAttributes(usageAttributes(usage));
    if (own) span.end(at);
    else run.answered = { span, end: at };
  }

  #openCall(run: RunSpans, callId: string, name: string, at: number): Span {
    const attributes: Attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': callId,
      'gen_ai.tool.type': 'function',
    };
    const span = this.#tracer.startSpan(`execute_tool ${name}`, { kind: this.#api.SpanKind.INTERNAL, attributes, startTime: at }, run.context);
    this.#calls.set(callId, span);
    run.calls.add(callId);
    return span;
  }

  #endCall(run: RunSpans, result: ToolResult, at: number): void {
    const span = this.#calls.get(result.id) ?? this.#openCall(run, result.id, result.name, at);
    span.setAttributes({ 'ambi.tool.attempts': result.attempts, 'ambi.tool.outcome': result.ok ? 'ok' : result.error.code });
    if (!result.ok) {
      span.setAttribute('error.type', result.error.code);
      span.setStatus({ code: this.#api.SpanStatusCode.ERROR, message: statusMessage(result.error) });
    }
    span.end(at);
    run.calls.delete(result.id);
  }

  /** A run ended: what is still open of it ends with it (a failed request's span, a call cut short), then its own span. */
  #endRun(key: string, run: RunSpans, at: number, failure?: Ending, usage?: Usage & { requests?: number }): void {
    if (run.answered) run.answered.span.end(run.answered.end);
    // A request that was under way when the run failed (no budget stops one before it starts; a context overflow before the engine).
    const inFlight = run.turn ?? (failure && run.turnStart !== undefined && !NO_REQUEST.has(failure.code) ? this.#turnOf(run, at) : undefined);
    if (inFlight) this.#endWithError(inFlight, failure ?? { code: 'incomplete', message: 'The run ended before this request did' }, at);
    for (const callId of run.calls) {
      const call = this.#calls.get(callId);
      if (call) this.#endWithError(call, failure ?? { code: 'incomplete', message: 'The run ended before this call did' }, at);
    }
    if (usage) {
      run.span.setAttributes(usageAttributes(usage));
      if (usage.requests !== undefined) run.span.setAttribute('ambi.usage.requests', usage.requests);
    }
    if (failure) this.#endWithError(run.span, failure, at);
    else run.span.end(at);
    this.#runs.delete(key);
    // The top run's end is the end: a leaf still open (its worker died mid-run, say) ends with it.
    if (key === '')
      for (const [leaf, open] of this.#runs) this.#endRun(leaf, open, at, failure ?? { code: 'incomplete', message: 'The run ended before this leaf did' });
  }

  #endWithError(span: Span, failure: Ending, at: number): void {
    span.setAttribute('error.type', failure.code);
    span.setStatus({ code: this.#api.SpanStatusCode.ERROR, message: statusMessage(failure) });
    span.end(at);
  }

  #safely(work: () => void): void {
    if (this.#broken) return;
    try {
      work();
    } catch (error) {
      this.#fail(error);
    }
  }

  #fail(error: unknown): void {
    if (this.#broken) return;
    this.#broken = true;
    this.#onFailure(error);
  }
}

/** The least step between two events' times: 1 µs, which a time since the epoch in milliseconds still tells apart. */
const MIN_STEP_MS = 0.001;

/** Why a span ended in error: a run's failure, or `incomplete` for what the run's end cut short. */
type Ending = { code: string; message: string };

/** Failures that happen before a model request is sent: no request span for them. */
const NO_REQUEST = new Set(['budget_exceeded', 'context_overflow', 'suspended', 'nothing_to_resume', 'conversation_busy']);

/** The longest status description a span gets: a failure's text can be megabytes (a tool's error, a server's page). */
const MAX_STATUS_CHARS = 200;

/**
 * A failure's status description: its code, then its message on one line, cut so the whole stays
 * within MAX_STATUS_CHARS. The rest of the text is the run's business (events, results), not the
 * trace's: a tool's arguments and output are never recorded (opt-in in the GenAI conventions).
 */
function statusMessage(failure: Ending): string {
  const head = `${failure.code}: `;
  const room = MAX_STATUS_CHARS - head.length;
  // Only the start is looked at: a 2 MB message is never copied whole.
  const cut = failure.message.length > room;
  const text = failure.message.slice(0, room).replace(/\s+/g, ' ').trim();
  return head + (cut ? `${text.slice(0, room - 1)}…` : text);
}

function usageAttributes(usage: Usage): Attributes {
  const attributes: Attributes = { 'gen_ai.usage.input_tokens': usage.promptTokens, 'gen_ai.usage.output_tokens': usage.completionTokens };
  if (usage.estimated) attributes['ambi.usage.estimated'] = true;
  return attributes;
}
