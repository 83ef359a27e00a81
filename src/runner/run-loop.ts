import type { RunResult } from '../core/run.js';
import type { AssistantMessage, Message, ToolChoice, ToolResult } from '../core/types.js';
import type { CallRun } from '../call/types.js';
import { toolMessage } from '../call/result.js';
import { isAmbiError } from '../errors/ambi-error.js';
import { EngineError } from '../errors/engine-error.js';
import { errorMessage } from '../errors/error-message.js';
import { BudgetExceededError } from '../errors/budget-exceeded-error.js';
import { MaxIterationsError } from '../errors/max-iterations-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import { RunSuspendedError } from '../errors/run-suspended-error.js';
import { childController } from '../util/abort-source.js';
import type { ExtensionSet } from './extension-set.js';
import type { History, ResumePoint, TurnRequest } from './extension.js';
import { formatErrorMessage } from './format-note.js';
import { stopAtLimit } from './iteration-limit.js';
import { modelTurn, type KeyedToolCall, type ModelTurn } from './model-turn.js';
import { tooManyCalls } from './reply-limit.js';
import type { RunSetup } from './run-setup.js';
import { effectiveToolChoice } from './tool-choice.js';
import { TurnScope, type RunShared } from './turn-scope.js';
import type { UsageMeter } from './usage-meter.js';

/** Everything one run's loop works with. */
export interface LoopContext {
  setup: RunSetup;
  extensions: ExtensionSet;
  /** The run's side of each call (see CallRun): policy hooks, slots, journal, events. */
  call: CallRun;
  shared: RunShared;
  /** This run's own tokens, its leaves' included (`RunResult.usage`); `shared.usage` holds the budget. */
  usage: UsageMeter;
  maxIterations: number;
  toolChoice?: ToolChoice;
  /** The run's own concurrency limit, for the scopes its calls see (a leaf runs under it). */
  concurrency: number;
}

/**
 * The ReAct loop: ask the model, run the calls of its reply, feed the results back in call
 * order, until it answers. A named conversation is appended after each reply and after each
 * batch of results; an abort still records the batch's (aborted) results, so no call is left
 * without one except by a crash, which the next run repairs (see the resume extension).
 */
export async function runLoop(ctx: LoopContext): Promise<RunResult> {
  const { setup, extensions } = ctx;
  const { agent, signal } = setup;
  const conversation = setup.options.conversation;
  const history = await startingHistory(ctx);
  // Ids unique within the conversation as far as the run reads it: a call never takes the id of one
  // already there (whose approval record, say, it could otherwise be mistaken for).
  for (const message of history.messages) if (message.role === 'assistant') for (const call of message.toolCalls ?? []) ctx.shared.callIds.claim(call.id);
  const opening = await extensions.open(history.messages);
  const resumed = opening.resume;
  // Results for calls an interrupted run left pass the result stage's hooks, as any result does.
  const reported = await Promise.all((opening.results ?? []).map(({ call, result }) => extensions.after(call, result)));
  const added: Message[] = [...reported.map((result) => toolMessage(result, agent.maxResultChars)), ...(opening.messages ?? [])];
  if (!resumed && history.length === 0 && agent.preamble) added.push({ role: 'system', content: agent.preamble });
  if (!resumed) added.push({ role: 'user', content: setup.content ? [...setup.content] : setup.input });
  const messages = [...history.messages, ...added];
  // Where the run's user message sits: trimming for a small context never drops it.
  const userAt = resumed ? resumed.userAt : messages.length - 1;
  const save = (step: Message[]) => (conversation !== undefined ? agent.conversations.append(conversation, step) : Promise.resolve());
  await save(added);
  ctx.call.emit({ type: 'run_started', runId: setup.runId, input: resumed ? resumed.input : setup.input });

  const toolResults: ToolResult[] = [];
  /** Feed a batch of results back: to the model's messages, the run's results and the stored conversation. */
  const finishBatch = async (step: Message[], results: readonly ToolResult[]) => {
    // Suspended: nothing of the batch is stored, so what waited for approval is still asked on resume
    // (the journal holds what non-idempotent calls did).
    if (suspended(signal)) throw new RunSuspendedError();
    messages.push(...step);
    toolResults.push(...results);
    await save(step);
    await forgetApprovals(ctx, results);
    if (signal.aborted) throw new RunAbortedError(signal.reason);
  };
  if (resumed && resumed.calls.length > 0) {
    const results = await runResumed(resumed, ctx, scopeOf(ctx, messages));
    await finishBatch(
      results.map((result) => toolMessage(result, agent.maxResultChars)),
      results,
    );
  }
  for (let iteration = 1; ; iteration++) {
    // Past the token budget (this run's, or its parent's for a leaf), no further request.
    const used = ctx.shared.usage.exceeded();
    if (used !== undefined) {
      const maxTokens = ctx.shared.usage.maxTokens!;
      if (conversation !== undefined) await stopAtLimit({ conversation, agent, maxTokens }, toolResults, history.length);
      throw new BudgetExceededError(maxTokens, used, toolResults);
    }
    const scope = scopeOf(ctx, messages);
    // On the last allowed turn nothing starts early: calls it asks for are never run.
    const turn = await askModel(ctx, messages, scope, { iteration, userAt });
    const assistant: AssistantMessage = { role: 'assistant', content: turn.rawText, ...(turn.provider ? { provider: turn.provider } : {}) };
    const wantsMore = turn.calls.length > 0 || turn.errors.length > 0;
    if (wantsMore && iteration >= ctx.maxIterations) {
      if (conversation !== undefined) await stopAtLimit({ conversation, agent, maxIterations: ctx.maxIterations }, toolResults, history.length);
      throw new MaxIterationsError(ctx.maxIterations, toolResults);
    }
    if (turn.calls.length > 0) assistant.toolCalls = turn.calls;
    const reply = extensions.reply(assistant);
    messages.push(reply);
    await save([reply]);
    if (!wantsMore) {
      const text = turn.text.trim();
      const verdict = await extensions.answer(text, iteration >= ctx.maxIterations);
      ctx.call.emit({ type: 'iteration_finished', iteration, finishReason: turn.finishReason, toolCalls: 0 });
      if (!verdict.ok) {
        // The model reads what was wrong with its answer and answers again.
        const note = extensions.reply(verdict.note);
        messages.push(note);
        await save([note]);
        continue;
      }
      const result: RunResult = { runId: setup.runId, text, messages, iterations: iteration, toolResults };
      if (history.skipped > 0) result.skippedMessages = history.skipped;
      if ('value' in verdict) result.output = verdict.value;
      const usage = ctx.usage.total();
      if (usage) result.usage = usage;
      return extensions.result(result);
    }
    // Every call of the reply, in call order; early ones are already running.
    const results = await Promise.all(turn.calls.map((call, at) => turn.started.get(call) ?? runOrRefuse(call, at, turn.calls.length, ctx, scope)));
    const step: Message[] = results.map((result) => toolMessage(result, agent.maxResultChars));
    if (turn.errors.length > 0) step.push(extensions.reply(formatErrorMessage(turn.errors, agent.maxResultChars)));
    await finishBatch(step, results);
    ctx.call.emit({ type: 'iteration_finished', iteration, finishReason: turn.finishReason, toolCalls: turn.calls.length });
  }
}

/** What the run starts from: a leaf's snapshot, what an extension reads (a conversation's end), the stored conversation, or nothing. */
async function startingHistory(ctx: LoopContext): Promise<History> {
  const { setup } = ctx;
  if (setup.history) return { messages: setup.history, length: setup.history.length, skipped: 0 };
  const conversation = setup.options.conversation;
  if (conversation === undefined) return { messages: [], length: 0, skipped: 0 };
  const read = ctx.extensions.readHistory();
  if (read) return read;
  // The whole conversation is sent: read it without a copy where the store can share it frozen.
  const store = setup.agent.conversations;
  const messages = store.loadFrozen ? await store.loadFrozen(conversation) : await store.load(conversation);
  return { messages, length: messages.length, skipped: 0 };
}

/** One turn's scope for the tools: the conversation so far, tied to what the run shares with its leaves. */
function scopeOf(ctx: LoopContext, messages: readonly Message[]): TurnScope {
  const { setup } = ctx;
  const budget = ctx.call.limiters[1];
  return new TurnScope(setup.runId, messages, ctx.call.emit, setup.depth, ctx.concurrency, budget, ctx.shared, { tools: setup.agent.tools, run: ctx.call });
}

/** Whether the run was stopped by `run.suspend()`. */
function suspended(signal: AbortSignal): boolean {
  return signal.aborted && isAmbiError(signal.reason) && signal.reason.code === 'suspended';
}

/** A batch's results are stored: the approval records of its calls are done with, whatever the tools say now (best effort). */
async function forgetApprovals(ctx: LoopContext, results: readonly ToolResult[]): Promise<void> {
  const { approvalStore, conversation } = ctx.call;
  if (!approvalStore || conversation === undefined || results.length === 0) return;
  await approvalStore
    .forget(
      conversation,
      results.map((result) => result.id),
    )
    .catch(() => {});
}

/** Run the call at `at` of its reply, or, past the reply's limit, give it a `too_many_calls` result without running it. */
function runOrRefuse(call: KeyedToolCall, at: number, replyCalls: number, ctx: LoopContext, scope: TurnScope): Promise<ToolResult> | ToolResult {
  const limit = ctx.shared.maxCallsPerReply;
  if (at < limit) return ctx.setup.agent.tools.execute(call, { run: ctx.call, scope });
  const result = tooManyCalls(call, replyCalls, limit);
  ctx.call.emit({ type: 'tool_finished', result });
  return result;
}

/** The calls an interrupted reply left without a result, run again in call order (the resume extension decides each in its policy stage). */
function runResumed(resumed: ResumePoint, ctx: LoopContext, scope: TurnScope): Promise<ToolResult[]> {
  return Promise.all(resumed.calls.map((call, i) => runOrRefuse(call, resumed.positions[i]!, resumed.replyCalls, ctx, scope)));
}

/** One model turn; an engine failure stops the calls that started early before it propagates. */
async function askModel(ctx: LoopContext, messages: readonly Message[], scope: TurnScope, at: { iteration: number; userAt: number }): Promise<ModelTurn> {
  const { setup, extensions } = ctx;
  const { agent, signal } = setup;
  if (signal.aborted) throw new RunAbortedError(signal.reason);
  const allowEarly = at.iteration < ctx.maxIterations;
  let early: ReturnType<typeof childController> | undefined;
  const started: Array<Promise<ToolResult>> = [];
  let calls = 0;
  try {
    const tools = agent.registry.definitions();
    // Relaxed here, for every engine: a forced choice holds only for the turn that answers the person.
    const toolChoice = ctx.toolChoice ? effectiveToolChoice(ctx.toolChoice, messages) : undefined;
    const request: TurnRequest = {
      engine: {
        // This turn's conversation, its own array: the loop goes on appending to `messages`.
        messages: messages.slice(),
        tools,
        signal,
        ...(toolChoice ? { toolChoice } : {}),
        // The parser's tags travel with the request: an engine that constrains its output (a local
        // model's grammar) then writes calls this parser reads, whatever tags it was given.
        ...(agent.parser.callTags ? { callTags: agent.parser.callTags } : {}),
      },
      instructions: !agent.engine.nativeTools && tools.length > 0 ? [agent.parser.instructions(tools)] : [],
      userAt: at.userAt,
      iteration: at.iteration,
    };
    await extensions.beforeTurn(request);
    const engineRequest = { ...request.engine, messages: withInstructions(request.engine.messages, request.instructions.join('\n\n')) };
    const turn = await modelTurn({
      agent,
      emit: ctx.call.emit,
      request: engineRequest,
      callIds: ctx.shared.callIds,
      slotsFull: () => ctx.call.limiters.some((limiter) => limiter.active >= limiter.limit),
      startEarly: (call) => {
        // A call past the reply's limit never runs, so never starts early either.
        if (++calls > ctx.shared.maxCallsPerReply || !allowEarly || !mayStartEarly(call, ctx)) return undefined;
        early ??= childController(signal);
        const running = agent.tools.execute(call, { run: { ...ctx.call, signal: early.controller.signal }, scope });
        started.push(running);
        return running;
      },
    });
    await extensions.afterTurn(turn);
    return turn;
  } catch (error) {
    early?.controller.abort(error);
    await Promise.all(started);
    if (signal.aborted) throw new RunAbortedError(signal.reason);
    throw isAmbiError(error) ? error : wrapEngineFailure(error);
  } finally {
    // Calls that started early outlive the turn: they stay linked to the run's signal until they settle.
    if (early) {
      const { unlink } = early;
      void Promise.all(started).finally(unlink);
    }
  }
}

/**
 * Whether a call may start while the reply still streams: side effects never start from a partial
 * stream, nor anything a person must see first (the tool's rule, or an extension that holds it).
 */
function mayStartEarly(call: KeyedToolCall, ctx: LoopContext): boolean {
  const tool = ctx.setup.agent.registry.get(call.name);
  return tool?.idempotent === true && !tool.needsApproval && !ctx.extensions.holdsCall(call);
}

/** The messages one request sends: the system prompt carries `instructions` (or they are a system message of their own). */
function withInstructions(messages: readonly Message[], instructions: string): readonly Message[] {
  if (!instructions) return messages;
  const [first, ...rest] = messages;
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${instructions}` }, ...rest];
  return [{ role: 'system', content: instructions }, ...messages];
}

function wrapEngineFailure(error: unknown): EngineError {
  return new EngineError('engine_error', `The engine failed: ${errorMessage(error)}`, { cause: error });
}
