import { isAmbiError } from '../errors/ambi-error.js';
import type { ToolChoice } from '../engines/types.js';
import { childController } from '../tools/abort-source.js';
import type { RunScope } from '../tools/types.js';
import type { Agent } from './agent.js';
import { Approvals, approvalsOf } from './approvals.js';
import { EventChannel, type RunEvent } from './events.js';
import { checkLimit, ConcurrencyBudget, Limiter } from './limiter.js';
import { withConversationLock, type LockMode } from './conversation-lock.js';
import type { Message } from './messages.js';
import { runLoop } from './run-loop.js';
import type { RunResult } from './run-result.js';
import { errorMessage } from '../errors/error-message.js';

export interface ChatRunnerOptions {
  /** Calls of one reply that run at once (default 5). */
  concurrency?: number;
  /** A cap shared with other runners and leaves, on top of `concurrency`. */
  budget?: ConcurrencyBudget;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Model turns allowed (default 10). */
  maxIterations?: number;
  /** A conversation id in the agent's store: the run continues it and appends to it. */
  conversation?: string;
  toolChoice?: ToolChoice;
  /** An id of your own for the run (default: a fresh UUID). */
  runId?: string;
  /** When another run (say in another tab) holds the conversation: `wait` (default) or `fail` with `conversation_busy`. */
  lock?: LockMode;
}

/** What a leaf run adds: it starts from its parent's snapshot, one level deeper. */
export interface ChildRunOptions {
  history: readonly Message[];
  depth: number;
  /** The parent run's scope (`ctx.run` of the call that starts the child): the child's calls are approved or denied through the parent run. */
  parent?: RunScope;
}

/** A run in progress. */
export interface Run {
  readonly runId: string;
  /** Every event of the run, in order; ends when the run settles. Read it once. */
  readonly events: AsyncIterable<RunEvent>;
  /** The answer, or a coded error (`aborted`, `max_iterations`, an engine's code). */
  readonly result: Promise<RunResult>;
  /** Stop now: every running tool's signal aborts and `result` rejects with code `aborted`. */
  abort(reason?: unknown): void;
  /** Let a call that waits for approval run. */
  approve(callId: string): void;
  /** Refuse a call that waits for approval; the model is told, with the reason. */
  deny(callId: string, reason?: string): void;
}

export const DEFAULT_CONCURRENCY = 5;
export const DEFAULT_MAX_ITERATIONS = 10;

/** Runs agents: the ReAct loop with a per-run concurrency limit. */
export class ChatRunner {
  readonly concurrency: number;
  readonly budget: ConcurrencyBudget | undefined;

  constructor(options: number | ChatRunnerOptions = DEFAULT_CONCURRENCY) {
    const { concurrency = DEFAULT_CONCURRENCY, budget } = typeof options === 'number' ? { concurrency: options } : options;
    checkLimit(concurrency); // now rather than at the first call
    this.concurrency = concurrency;
    this.budget = budget;
  }

  /** Start a run of `agent` on `input`. */
  run(agent: Agent, input: string, options: RunOptions = {}): Run {
    return this.#start(agent, input, options);
  }

  /** Start a run from given messages instead of a stored conversation (how a leaf runs). */
  runChild(agent: Agent, input: string, child: ChildRunOptions, options: Omit<RunOptions, 'conversation'> = {}): Run {
    return this.#start(agent, input, options, child);
  }

  #start(agent: Agent, input: string, options: RunOptions, child?: ChildRunOptions): Run {
    const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    if (!(Number.isInteger(maxIterations) && maxIterations >= 1)) {
      throw new RangeError(`maxIterations must be a whole number >= 1 (got ${maxIterations})`);
    }
    const runId = options.runId ?? crypto.randomUUID();
    const channel = new EventChannel();
    // Unlinked when the run settles: a caller's signal that outlives many runs keeps none of them.
    const { controller, unlink } = childController(options.signal);
    const approvals = (child?.parent && approvalsOf(child.parent)) || new Approvals();
    const limiters = this.budget ? [new Limiter(this.concurrency), this.budget] : [new Limiter(this.concurrency)];
    // What the agent is told outside any run (an MCP tool withdrawn) reaches a top-level run from its start on.
    let unobserve: (() => void) | undefined;
    const emit = (event: RunEvent) => {
      channel.push(event);
      if (event.type === 'run_started' && !child) unobserve = agent.observe((notice) => channel.push(notice));
    };

    const loop = () =>
      runLoop({
        runId,
        agent,
        input,
        maxIterations,
        ...(options.conversation !== undefined ? { conversation: options.conversation } : {}),
        ...(options.toolChoice !== undefined ? { toolChoice: options.toolChoice } : {}),
        ...(agent.journal ? { journal: agent.journal } : {}),
        ...(child ? { history: child.history } : {}),
        depth: child?.depth ?? 0,
        concurrency: this.concurrency,
        ...(this.budget ? { budget: this.budget } : {}),
        tools: agent.tools,
        limiters,
        approvals,
        emit,
        signal: controller.signal,
      });
    const { conversation } = options;
    const locked = conversation === undefined ? loop() : withConversationLock(conversation, options.lock ?? 'wait', controller.signal, loop);
    const result = locked.finally(() => {
      unlink();
      unobserve?.();
    }).then(
      (value) => {
        channel.push({ type: 'run_finished', result: value });
        channel.close();
        return value;
      },
      (error: unknown) => {
        const code = isAmbiError(error) ? error.code : 'internal_error';
        channel.push({ type: 'run_failed', error: { code, message: errorMessage(error) } });
        channel.close();
        throw error;
      },
    );
    // The failure is also an event: a caller who reads only events gets no unhandled rejection.
    result.catch(() => {});

    return {
      runId,
      events: channel,
      result,
      abort: (reason) => controller.abort(reason),
      approve: (callId) => void approvals.decide(callId, { approved: true }),
      deny: (callId, reason) => void approvals.decide(callId, { approved: false, ...(reason ? { reason } : {}) }),
    };
  }
}
