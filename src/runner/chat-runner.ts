import type { PendingApproval } from '../store/approval-types.js';
import { Approvals, type ApprovalDecision, type ApproveOptions } from '../call/approvals.js';
import type { CallRun } from '../call/types.js';
import { isAmbiError } from '../errors/ambi-error.js';
import { RunSuspendedError } from '../errors/run-suspended-error.js';
import { childController } from '../util/abort-source.js';
import { checkLimit, type ConcurrencyBudget, Limiter } from '../util/limiter.js';
import { CallIds } from './call-ids.js';
import { checkResumed, checkRunOptions } from './check-options.js';
import { withConversationLock } from './conversation-lock.js';
import { EventChannel, type RunEvent } from './events.js';
import { extensionsFor } from './extension-set.js';
import type { OutputSchema } from './output-types.js';
import { DEFAULT_MAX_CALLS_PER_REPLY } from './reply-limit.js';
import { runFailure } from './run-failure.js';
import { runLoop } from './run-loop.js';
import { DEFAULT_CONCURRENCY, DEFAULT_MAX_ITERATIONS, type ChildRunOptions, type Run, type RunOptions, type RunOutput } from './run-options.js';
import { journalOf, type RunAgent, type RunSetup } from './run-setup.js';
import { TurnScope, type RunShared } from './turn-scope.js';
import { UsageMeter } from './usage-meter.js';
import { TreeState } from './run-tree.js';
import { RunState } from './run-view.js';
import type { RunInput } from '../core/parts.js';
import { DEFAULT_MAX_PART_BYTES } from '../parts/limits.js';
import { takeInput } from '../parts/run-input.js';

export { DEFAULT_CONCURRENCY, DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_OUTPUT_RETRIES } from './run-options.js';
export type { ChildRunOptions, Run, RunOptions, RunOutput, RunTracer } from './run-options.js';

export interface ChatRunnerOptions {
  /** Calls of one reply that run at once (default 5). */
  concurrency?: number;
  /** A cap shared with other runners and leaves, on top of `concurrency`. */
  budget?: ConcurrencyBudget;
}

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
  run<const S extends OutputSchema = never>(agent: RunAgent, input: RunInput, options: RunOptions<S> = {}): Run<RunOutput<S>> {
    return this.#start(agent, input, options) as Run<RunOutput<S>>;
  }

  /**
   * Continue the interrupted run of a stored conversation (the page reloaded, the run was
   * suspended): it takes the conversation's lock, asks again what waited for approval, uses
   * recorded results, runs what never started, then goes on with the model. `result` rejects
   * with `nothing_to_resume` when the conversation has no interrupted run.
   */
  resume(agent: RunAgent, conversation: string, options: Omit<RunOptions, 'conversation' | 'output' | 'maxOutputRetries'> = {}): Run {
    checkResumed(conversation);
    return this.#start(agent, '', { ...options, conversation }, undefined, true);
  }

  /** The calls of a conversation's interrupted run that wait for a decision (what `resume` asks again), in call order. */
  async pendingApprovals(agent: RunAgent, conversation: string): Promise<PendingApproval[]> {
    checkResumed(conversation);
    return (await agent.pendingApprovals?.(conversation)) ?? [];
  }

  /** Start a run from given messages instead of a stored conversation (how a leaf runs). */
  runChild(agent: RunAgent, input: string, child: ChildRunOptions, options: Omit<RunOptions, 'conversation'> = {}): Run {
    return this.#start(agent, input, options, child);
  }

  #start(agent: RunAgent, input: RunInput, options: RunOptions, child?: ChildRunOptions, resume = false): Run {
    checkRunOptions(options);
    // Parts (images, files) checked now; a refusal rejects the run before anything is read or stored.
    const given = takeInput(input, agent.maxPartBytes ?? DEFAULT_MAX_PART_BYTES);
    const runId = options.runId ?? crypto.randomUUID();
    const channel = new EventChannel();
    // Unlinked when the run settles: a caller's signal that outlives many runs keeps none of them.
    const { controller, unlink } = childController(options.signal);
    // A leaf shares its parent run's: the person answers both in one place, and their call ids are unique together.
    const shared: RunShared = (child?.parent && TurnScope.sharedOf(child.parent)) || {
      approvals: new Approvals(),
      callIds: new CallIds(),
      maxCallsPerReply: options.maxCallsPerReply ?? DEFAULT_MAX_CALLS_PER_REPLY,
      usage: new UsageMeter(options.maxTokens),
      tree: new TreeState(),
    };
    // A trace context of the caller's own is what the run's tools get (see RunScope.traceContext), a tracer's made for them or not.
    if (options.traceContext) shared.tree.of('traceContext', () => options.traceContext);
    const state = new RunState(runId);
    const limiters = this.budget ? [new Limiter(this.concurrency), this.budget] : [new Limiter(this.concurrency)];
    // This run's tokens: its own requests and its leaves' (whose events come here tagged with their id).
    const usage = new UsageMeter();
    let adorn = (event: RunEvent) => event;
    const emit = (event: RunEvent) => {
      if (event.type === 'usage') {
        usage.add(event.usage);
        // Counted for the budget where the request was made, so a leaf's count the moment it is known.
        if (event.leafId === undefined) shared.usage.add(event.usage);
      }
      const adorned = adorn(event);
      state.take(adorned);
      channel.push(adorned);
    };
    const setup: RunSetup = {
      runId,
      agent,
      input: given.text,
      ...(given.parts ? { content: given.parts } : {}),
      options,
      resume,
      depth: child?.depth ?? 0,
      signal: controller.signal,
      emit,
      usage: shared.usage,
      tree: shared.tree,
      view: state,
      ...(child ? { history: child.history } : {}),
      ...(child?.parent ? { parent: child.parent } : {}),
    };
    const { conversation } = options;

    const loop = async () => {
      if (given.refused) throw given.refused;
      const extensions = await extensionsFor(setup);
      adorn = (event) => extensions.event(event);
      extensions.warn = emit;
      const journal = journalOf(agent, conversation);
      const call: CallRun = {
        runId,
        signal: controller.signal,
        emit,
        limiters,
        approvals: shared.approvals,
        hooks: extensions,
        ...(journal ? { journal } : {}),
        ...(agent.onToolError ? { onToolError: agent.onToolError } : {}),
        ...(conversation !== undefined ? { conversation } : {}),
      };
      const run = () =>
        runLoop({
          setup,
          extensions,
          call,
          shared,
          state,
          usage,
          maxIterations: options.maxIterations ?? DEFAULT_MAX_ITERATIONS,
          concurrency: this.concurrency,
          ...(options.toolChoice !== undefined ? { toolChoice: options.toolChoice } : {}),
        });
      try {
        const result = await (conversation === undefined ? run() : withConversationLock(conversation, options.lock ?? 'wait', controller.signal, run));
        await extensions.end({ ok: true, result });
        return result;
      } catch (error) {
        await extensions.end({ ok: false, error });
        throw error;
      }
    };
    const result = loop()
      .finally(unlink)
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
      approve: (callId, approveOptions = {}) => void shared.approvals.decide(callId, approval(approveOptions)),
      deny: (callId, reason, denyOptions = {}) =>
        void shared.approvals.decide(callId, { approved: false, ...(reason ? { reason } : {}), ...(denyOptions.always ? { always: true } : {}) }),
    };
  }
}

/** An approval as the loop reads it: only the options given. */
function approval(options: ApproveOptions & { refusedArguments?: string }): ApprovalDecision {
  return {
    approved: true,
    ...(options.always ? { always: true } : {}),
    ...(options.arguments !== undefined ? { arguments: options.arguments } : {}),
    ...(options.refusedArguments !== undefined ? { refusedArguments: options.refusedArguments } : {}),
  };
}
