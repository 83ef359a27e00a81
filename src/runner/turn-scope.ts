import type { RunEvent } from '../core/run.js';
import type { CallHandle, Message } from '../core/types.js';
import type { Approvals } from '../call/approvals.js';
import type { ToolCallJournal } from '../store/types.js';
import type { InputAsk, RunScope, TraceContext } from '../tools/types.js';
import type { CallRun } from '../call/types.js';
import type { ToolManager } from '../call/tool-manager.js';
import type { Limiter } from '../util/limiter.js';
import type { CallIds } from './call-ids.js';
import type { UsageMeter } from './usage-meter.js';
import type { TreeState } from './run-tree.js';
import type { RunView } from './run-view.js';

/** What a run shares with the leaves it starts: one person answers their approvals, and their call ids are unique together. */
export interface RunShared {
  approvals: Approvals;
  callIds: CallIds;
  /** A leaf's replies are held to its run's limit. */
  maxCallsPerReply: number;
  /** The tokens the run and its leaves used, counted where each request is made, and the run's budget. */
  usage: UsageMeter;
  /** What the extensions keep for the run and its leaves together; a `RunScope` service (`traceContext`) is served from here. */
  tree: TreeState;
}

/** What every turn's scope of one run shares: the run itself, as its tools may see it. */
export interface ScopeRun {
  runId: string;
  emit: (event: RunEvent) => void;
  depth: number;
  concurrency: number;
  budget: Limiter | undefined;
  shared: RunShared;
  /** Where the run records its calls, and its calls in flight (to note a handle with the call it belongs to). */
  journal: ToolCallJournal | undefined;
  view: RunView;
  /** The run's call pipeline, for calls a tool makes on the run's behalf (Code Mode's program). */
  pipeline?: ScopePipeline;
}

/** The run's call pipeline as a tool that calls on the run's behalf reaches it: its tools, and the run's side of each call. */
export interface ScopePipeline {
  readonly tools: ToolManager;
  readonly run: CallRun;
}

type TraceSource = (callId: string) => TraceContext | undefined | Promise<TraceContext | undefined>;

/**
 * What a tool sees of its run (`ctx.run`) in one model turn. What the run shares with its leaves
 * rides along in a private field, out of a tool's reach (a tool must not answer for the person):
 * only `sharedOf` reads it, for a leaf started from this scope.
 */
export class TurnScope implements RunScope {
  readonly #run: ScopeRun;
  declare readonly runId: string;
  declare readonly messages: readonly Message[];
  declare readonly emit: (event: RunEvent) => void;
  declare readonly depth: number;
  declare readonly concurrency: number;
  declare readonly budget?: Limiter;
  declare readonly traceContext?: (callId: string) => Promise<TraceContext | undefined>;
  declare readonly noteHandle?: (callId: string, handle: CallHandle) => void;

  constructor(
    run: ScopeRun,
    /** The run's messages so far; the scope shows them up to their length now (the loop only appends). */
    conversation: readonly Message[],
  ) {
    this.#run = run;
    const length = conversation.length;
    let messages: readonly Message[] | undefined;
    // A tool's own view, as a copy of the context shows it: the conversation before the reply that
    // made this turn's calls, copied when first read (most tools never read it).
    Object.defineProperties(this, {
      runId: { value: run.runId, enumerable: true },
      messages: { get: () => (messages ??= conversation.slice(0, length)), enumerable: true },
      emit: { value: run.emit, enumerable: true },
      depth: { value: run.depth, enumerable: true },
      concurrency: { value: run.concurrency, enumerable: true },
      ...(run.budget ? { budget: { value: run.budget, enumerable: true } } : {}),
    });
    // Served by an extension of the run's tree (a traced run's), where one serves it.
    const traceContext = traceContextOf(run.shared.tree.get<TraceSource>('traceContext'));
    if (traceContext) Object.defineProperty(this, 'traceContext', { value: traceContext, enumerable: true });
    const { journal, view } = run;
    if (journal?.note) Object.defineProperty(this, 'noteHandle', { value: noted(journal, view), enumerable: true });
  }

  /**
   * A running call's question to the person (see RunScope.awaitInput): it waits where approvals
   * wait, so `run.respond` (through the same `Approvals`) answers it once, and an abort ends it.
   */
  async awaitInput(ask: InputAsk, signal: AbortSignal): Promise<unknown> {
    const check = (decision: { approved: boolean; answers?: unknown }) => {
      // A denial is a refusal (the answers `null` make); an approval says nothing of the answers asked for.
      const values = decision.approved ? decision.answers : null;
      if (decision.approved && !('answers' in decision))
        return { refused: `Call "${ask.callId}" waits for answers: give them with respond(callId, values), not approve` };
      const checked = ask.check(values);
      return checked.ok ? { approved: decision.approved, answers: checked.answers } : { refused: checked.message };
    };
    const wait = this.#run.shared.approvals.wait(ask.callId, signal, check);
    this.emit({ type: 'input_requested', callId: ask.callId, name: ask.name, requests: ask.requests, untrusted: { source: ask.source } });
    return (await wait).answers;
  }

  /** What the run of `scope` shares with its leaves, if it is a run's scope. */
  static sharedOf(scope: RunScope): RunShared | undefined {
    return #run in scope ? (scope as TurnScope).#run.shared : undefined;
  }

  /** The run's call pipeline, if `scope` is a run's scope (private like `sharedOf`: it decides for the person, so no tool reads it by itself). */
  static pipelineOf(scope: RunScope): ScopePipeline | undefined {
    return #run in scope ? (scope as TurnScope).#run.pipeline : undefined;
  }
}

/** A scope's `traceContext`: the served one, made async, where there is one. */
function traceContextOf(find: TraceSource | undefined): ((callId: string) => Promise<TraceContext | undefined>) | undefined {
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

/** A scope's `noteHandle`: the handle recorded with the call in flight it names (quietly: noting never fails a call). */
function noted(journal: ToolCallJournal, view: RunView): (callId: string, handle: CallHandle) => void {
  return (callId, handle) => {
    const call = view.inFlight.get(callId);
    if (call) void journal.note!(call.idempotencyKey, handle).catch(() => {});
  };
}
