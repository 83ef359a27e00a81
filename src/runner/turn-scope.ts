import type { RunEvent } from '../core/run.js';
import type { Message } from '../core/types.js';
import type { Approvals } from '../call/approvals.js';
import type { RunScope, TraceContext } from '../tools/types.js';
import type { CallRun } from '../call/types.js';
import type { ToolManager } from '../call/tool-manager.js';
import type { Limiter } from '../util/limiter.js';
import type { CallIds } from './call-ids.js';
import type { UsageMeter } from './usage-meter.js';
import type { RunTreeState } from './run-tree.js';

/** What a run shares with the leaves it starts: one person answers their approvals, and their call ids are unique together. */
export interface RunShared {
  approvals: Approvals;
  callIds: CallIds;
  /** A leaf's replies are held to its run's limit. */
  maxCallsPerReply: number;
  /** The tokens the run and its leaves used, counted where each request is made, and the run's budget. */
  usage: UsageMeter;
  /** The W3C trace context of a call of the run or its leaves, when the run is traced (see `RunScope.traceContext`). */
  traceContext?: (callId: string) => TraceContext | undefined | Promise<TraceContext | undefined>;
  /** What the extensions keep for the run and its leaves together. */
  tree: RunTreeState;
}

/** The run's call pipeline, for calls a tool makes on the run's behalf (Code Mode's program): its tools, and the run's side of each call. */
export interface ScopePipeline {
  readonly tools: ToolManager;
  readonly run: CallRun;
}

/**
 * What a tool sees of its run (`ctx.run`) in one model turn. What the run shares with its leaves
 * rides along in a private field, out of a tool's reach (a tool must not answer for the person):
 * only `sharedOf` reads it, for a leaf started from this scope.
 */
export class TurnScope implements RunScope {
  readonly #shared: RunShared;
  readonly #pipeline: ScopePipeline | undefined;
  declare readonly runId: string;
  declare readonly messages: readonly Message[];
  declare readonly emit: (event: RunEvent) => void;
  declare readonly depth: number;
  declare readonly concurrency: number;
  declare readonly budget?: Limiter;
  declare readonly traceContext?: (callId: string) => Promise<TraceContext | undefined>;

  constructor(
    runId: string,
    /** The run's messages so far; the scope shows them up to their length now (the loop only appends). */
    conversation: readonly Message[],
    emit: (event: RunEvent) => void,
    depth: number,
    concurrency: number,
    budget: Limiter | undefined,
    shared: RunShared,
    pipeline?: ScopePipeline,
  ) {
    this.#shared = shared;
    this.#pipeline = pipeline;
    const length = conversation.length;
    let messages: readonly Message[] | undefined;
    // A tool's own view, as a copy of the context shows it: the conversation before the reply that
    // made this turn's calls, copied when first read (most tools never read it).
    Object.defineProperties(this, {
      runId: { value: runId, enumerable: true },
      messages: { get: () => (messages ??= conversation.slice(0, length)), enumerable: true },
      emit: { value: emit, enumerable: true },
      depth: { value: depth, enumerable: true },
      concurrency: { value: concurrency, enumerable: true },
      ...(budget ? { budget: { value: budget, enumerable: true } } : {}),
    });
    // Only for a traced run (set once its extensions are made, before its first turn).
    const traceContext = traceContextOf(shared);
    if (traceContext) Object.defineProperty(this, 'traceContext', { value: traceContext, enumerable: true });
  }

  /** What the run of `scope` shares with its leaves, if it is a run's scope. */
  static sharedOf(scope: RunScope): RunShared | undefined {
    return #shared in scope ? (scope as TurnScope).#shared : undefined;
  }

  /** The run's call pipeline, if `scope` is a run's scope (private like `sharedOf`: it decides for the person, so no tool reads it by itself). */
  static pipelineOf(scope: RunScope): ScopePipeline | undefined {
    return #shared in scope ? (scope as TurnScope).#pipeline : undefined;
  }
}

/** A scope's `traceContext`: the run's, made async, where the run is traced. */
function traceContextOf(shared: RunShared): ((callId: string) => Promise<TraceContext | undefined>) | undefined {
  const find = shared.traceContext;
  if (!find) return undefined;
  // Tracing never fails a call: a context that cannot be had is no context.
  return async (callId: string) => {
    try {
      return await find(callId);
    } catch {
      return undefined;
    }
  };
}
