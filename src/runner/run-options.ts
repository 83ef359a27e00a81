import type { RunResult } from '../core/run.js';
import type { Message, ToolChoice } from '../core/types.js';
import type { ApproveOptions, DenyOptions } from '../call/approvals.js';
import type { RunScope, TraceContext } from '../tools/types.js';
import type { RunEvent } from './events.js';
import type { LockMode } from './conversation-lock.js';
import type { OutputOf, OutputSchema } from './output-types.js';

/** What a run may be given. */
export interface RunOptions<S extends OutputSchema = OutputSchema> {
  signal?: AbortSignal;
  /**
   * The final answer must be JSON matching this schema (a JSON Schema, or a Standard Schema such as zod):
   * `result.output` holds it, validated (a Standard Schema's parsed value). Tool calls may come first.
   */
  output?: S;
  /** Answers that do not match `output` fed back to the model for another try (default 2), within `maxIterations`; then `invalid_output`. */
  maxOutputRetries?: number;
  /** Model turns allowed (default 10). */
  maxIterations?: number;
  /** Calls of one reply that run (default 16); each call past it gets a `too_many_calls` result instead. A leaf keeps its run's. */
  maxCallsPerReply?: number;
  /** A conversation id (non-empty) in the agent's store: the run continues it and appends to it. */
  conversation?: string;
  toolChoice?: ToolChoice;
  /** An id of your own for the run (default: a fresh UUID). */
  runId?: string;
  /** When another run (say in another tab) holds the conversation: `wait` (default) or `fail` with `conversation_busy`. */
  lock?: LockMode;
  /**
   * A token budget for the run, its leaves and any extra request included: once the tokens used
   * pass it, no further model request is made and `result` rejects with `budget_exceeded`
   * (results already produced are kept, as for `max_iterations`). Default: none.
   */
  maxTokens?: number;
  /**
   * An OpenTelemetry `Tracer` (from `@opentelemetry/api`, an optional peer dependency loaded only
   * when a tracer is given): the run is traced with spans of the GenAI semantic conventions
   * (`invoke_agent`, `chat`, `execute_tool`). A tracer that throws never fails the run.
   */
  tracer?: RunTracer;
  /**
   * The W3C trace context of a call's span, for tools that pass it on (MCP calls send it in
   * `_meta`): made for you with `tracer`; give your own to link calls to a tracing of your own.
   */
  traceContext?: (callId: string) => TraceContext | undefined | Promise<TraceContext | undefined>;
}

/**
 * An OpenTelemetry `Tracer` (`trace.getTracer(name)` of `@opentelemetry/api`), typed by the one
 * method ambi-web calls, so that ambi-web's types need not the package.
 */
export interface RunTracer {
  startSpan(name: string, options?: object, context?: unknown): unknown;
}

/** What a leaf run adds: it starts from its parent's snapshot, one level deeper. */
export interface ChildRunOptions {
  history: readonly Message[];
  depth: number;
  /** The parent run's scope (`ctx.run` of the call that starts the child): the child's calls are approved or denied through the parent run. */
  parent?: RunScope;
}

/** A run in progress; `Output` types `result.output` when the run has an `output` schema. */
export interface Run<Output = unknown> {
  readonly runId: string;
  /** Every event of the run, in order; ends when the run settles. One reader at a time (another gets `events_busy`); one that breaks out early leaves the rest to the next. */
  readonly events: AsyncIterable<RunEvent>;
  /** The answer, or a coded error (`aborted`, `suspended`, `max_iterations`, `budget_exceeded`, `nothing_to_resume`, an engine's code). */
  readonly result: Promise<RunResult<Output>>;
  /** Stop now: every running tool's signal aborts and `result` rejects with code `aborted`. */
  abort(reason?: unknown): void;
  /**
   * Stop now and keep the run resumable: calls that wait for approval stay pending (stored with the
   * conversation), running calls are aborted and journalled, the lock is released, and `result`
   * rejects with code `suspended`. Continue it with `resume(conversation)`, here or in another page.
   */
  suspend(): void;
  /**
   * Let the call whose `approval_requested` carried `callId` run (ids are unique within a run and its leaves).
   * `always`: a standing decision for its tool in this conversation; `arguments`: run it with these instead.
   */
  approve(callId: string, options?: ApproveOptions): void;
  /** Refuse a call that waits for approval; the model is told, with the reason. `always`: refuse its tool from now on in this conversation. */
  deny(callId: string, reason?: string, options?: DenyOptions): void;
  /**
   * Answer the question a running call's server asked (`input_requested` carried `callId`): `values`
   * are keyed by the request's `key` (with a single request, its fields alone will do), checked
   * against the server's form; `null` refuses (the server is told the person declined). Rejects
   * `invalid_input` for values that do not fit (nothing is sent, the call keeps waiting), `not_waiting`
   * when no call waits for answers under that id.
   */
  respond(callId: string, values: Record<string, unknown> | null): Promise<void>;
}

export const DEFAULT_CONCURRENCY = 5;
export const DEFAULT_MAX_ITERATIONS = 10;
export const DEFAULT_MAX_OUTPUT_RETRIES = 2;

/** The output type of a run given `output: S` (`unknown` without one). */
export type RunOutput<S> = [S] extends [never] ? unknown : OutputOf<S>;
