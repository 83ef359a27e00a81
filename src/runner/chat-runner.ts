import type { ToolChoice } from '../core/types.js';
import { childController } from '../util/abort-source.js';
import { loadOnce } from '../util/load-once.js';
import type { RunScope } from '../tools/types.js';
import type { Agent } from './agent.js';
import { Approvals, type ApproveOptions, type DenyOptions } from './approvals.js';
import type { PendingApproval } from '../store/approval-types.js';
import { RunSuspendedError } from '../errors/run-suspended-error.js';
import { isAmbiError } from '../errors/ambi-error.js';
import { CallIds } from './call-ids.js';
import { checkResumed, checkRunOptions } from './check-options.js';
import { EventChannel, type RunEvent } from './events.js';
import { checkLimit, type ConcurrencyBudget, Limiter } from './limiter.js';
import type { LockMode } from './conversation-lock.js';
import type { Message } from '../core/types.js';
import { DEFAULT_MAX_CALLS_PER_REPLY } from './reply-limit.js';
import { runFailure } from './run-failure.js';
import { runLoop } from './run-loop.js';
import type { RunResult } from './run-result.js';
import { sharedOf, type RunShared } from './run-shared.js';
import { outputSpec, type OutputOf, type OutputSchema } from './output.js';

export interface ChatRunnerOptions {
  /** Calls of one reply that run at once (default 5). */
  concurrency?: number;
  /** A cap shared with other runners and leaves, on top of `concurrency`. */
  budget?: ConcurrencyBudget;
}

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
  /** The answer, or a coded error (`aborted`, `suspended`, `max_iterations`, `nothing_to_resume`, an engine's code). */
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
}

export const DEFAULT_CONCURRENCY = 5;
export const DEFAULT_MAX_ITERATIONS = 10;
export const DEFAULT_MAX_OUTPUT_RETRIES = 2;

/** The output type of a run given `output: S` (`unknown` without one). */
export type RunOutput<S> = [S] extends [never] ? unknown : OutputOf<S>;

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

  /**
   * Start a run of `agent` on `input`.
   *
   * @example
   * ```ts
   * import { Agent, ChatRunner, defineTool, scriptedEngine } from 'ambi-web';
   *
   * const clock = defineTool({
   *   name: 'clock', description: 'The time now', readOnly: true,
   *   parameters: { type: 'object', properties: {} },
   *   call: () => new Date().toISOString(),
   * });
   * const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ name: 'clock', arguments: {} }] }, 'It is late.']))).tool(clock);
   * const run = new ChatRunner().run(agent, 'What time is it?', { maxIterations: 3 });
   * for await (const event of run.events) if (event.type === 'tool_finished') console.log(event.result);
   * console.log((await run.result).text); // 'It is late.'
   * ```
   */
  run<const S extends OutputSchema = never>(agent: Agent, input: string, options: RunOptions<S> = {}): Run<RunOutput<S>> {
    return this.#start(agent, input, options) as Run<RunOutput<S>>;
  }

  /**
   * Continue the interrupted run of a stored conversation (the page reloaded, the run was
   * suspended): it takes the conversation's lock, asks again what waited for approval, uses
   * recorded results, runs what never started, then goes on with the model. `result` rejects
   * with `nothing_to_resume` when the conversation has no interrupted run.
   */
  resume(agent: Agent, conversation: string, options: Omit<RunOptions, 'conversation' | 'output' | 'maxOutputRetries'> = {}): Run {
    checkResumed(conversation);
    return this.#start(agent, '', { ...options, conversation }, undefined, true);
  }

  /** The calls of a conversation's interrupted run that wait for a decision (what `resume` asks again), oldest first. */
  async pendingApprovals(agent: Agent, conversation: string): Promise<PendingApproval[]> {
    checkResumed(conversation);
    return (await pendingCode()).pendingApprovals(agent.conversations, conversation);
  }

  /** Start a run from given messages instead of a stored conversation (how a leaf runs). */
  runChild(agent: Agent, input: string, child: ChildRunOptions, options: Omit<RunOptions, 'conversation'> = {}): Run {
    return this.#start(agent, input, options, child);
  }

  #start(agent: Agent, input: string, options: RunOptions, child?: ChildRunOptions, resume = false): Run {
    checkRunOptions(options);
    // Compiled now: a schema that is not one is refused before the run takes a lock or a slot.
    const output = options.output !== undefined ? outputSpec(options.output, agent.registry.validation) : undefined;
    const maxIterations = options.maxIterations ?? DEFAULT_MAX_ITERATIONS;
    const runId = options.runId ?? crypto.randomUUID();
    const channel = new EventChannel();
    // Unlinked when the run settles: a caller's signal that outlives many runs keeps none of them.
    const { controller, unlink } = childController(options.signal);
    // A leaf shares its parent run's: the person answers both in one place, and their call ids are unique together.
    const shared: RunShared = (child?.parent && sharedOf(child.parent)) || {
      approvals: new Approvals(),
      callIds: new CallIds(),
      maxCallsPerReply: options.maxCallsPerReply ?? DEFAULT_MAX_CALLS_PER_REPLY,
    };
    const { approvals } = shared;
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
        ...(output ? { output, maxOutputRetries: options.maxOutputRetries ?? DEFAULT_MAX_OUTPUT_RETRIES } : {}),
        ...(options.conversation !== undefined ? { conversation: options.conversation } : {}),
        ...(options.conversation !== undefined && agent.conversations.approvals
          ? { durable: { store: agent.conversations.approvals, conversation: options.conversation } }
          : {}),
        ...(resume ? { resume } : {}),
        ...(options.toolChoice !== undefined ? { toolChoice: options.toolChoice } : {}),
        ...(agent.journal ? { journal: agent.journal } : {}),
        ...(child ? { history: child.history } : {}),
        depth: child?.depth ?? 0,
        concurrency: this.concurrency,
        ...(this.budget ? { budget: this.budget } : {}),
        tools: agent.tools,
        limiters,
        approvals,
        shared,
        emit,
        signal: controller.signal,
      });
    const { conversation } = options;
    // The lock's code loads with the first run on a conversation; runs ask for the lock in the order they started.
    const locked =
      conversation === undefined
        ? loop()
        : lockCode().then(({ withConversationLock }) => withConversationLock(conversation, options.lock ?? 'wait', controller.signal, loop));
    const result = locked
      .finally(() => {
        unlink();
        unobserve?.();
      })
      .then(
        (value) => {
          channel.push({ type: 'run_finished', result: value });
          channel.close();
          return value;
        },
        (thrown: unknown) => {
          // However the loop noticed it (an aborted engine turn, say), a suspended run says so.
          const error = controller.signal.reason instanceof RunSuspendedError && !isAmbiError(thrown, 'nothing_to_resume') ? controller.signal.reason : thrown;
          channel.push({ type: 'run_failed', error: runFailure(error) });
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
      suspend: () => controller.abort(new RunSuspendedError()),
      approve: (callId, options = {}) => void approvals.decide(callId, approval(options)),
      deny: (callId, reason, options = {}) =>
        void approvals.decide(callId, { approved: false, ...(reason ? { reason } : {}), ...(options.always ? { always: true } : {}) }),
    };
  }
}

// Loaded once, with the first run on a conversation: runs waiting for it ask for the lock in the order they started.
const lockCode = loadOnce(() => import('./conversation-lock.js'));
const pendingCode = loadOnce(() => import('./interrupted.js'));

/** An approval as the loop reads it: only the options given. */
function approval(options: ApproveOptions) {
  return { approved: true, ...(options.always ? { always: true } : {}), ...(options.arguments !== undefined ? { arguments: options.arguments } : {}) };
}
