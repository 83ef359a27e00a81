import { isAmbiError } from '../errors/ambi-error.js';
import { EngineError } from '../errors/engine-error.js';
import { MaxIterationsError } from '../errors/max-iterations-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import type { EngineRequest } from '../engines/types.js';
import type { ToolChoice, Usage } from '../core/types.js';
import { childController, type ChildController } from '../util/abort-source.js';
import type { RunScope } from '../tools/types.js';
import type { ToolDefinition, ToolResult } from '../core/types.js';
import type { Agent } from './agent.js';
import { dispatchCall, mayStartEarly, type DispatchContext } from './dispatch.js';
import type { ConcurrencyBudget } from '../util/limiter.js';
import type { Message } from '../core/types.js';
import { modelTurn, type KeyedToolCall, type ModelTurn } from './model-turn.js';
import { tooManyCalls } from './reply-limit.js';
import { RunSuspendedError } from '../errors/run-suspended-error.js';
import { linkShared, type RunShared } from './run-shared.js';
import { effectiveToolChoice } from './tool-choice.js';
import type { RunResult } from './run-result.js';
import { formatErrorMessage, toolMessage } from './tool-message.js';
import { errorMessage } from '../errors/error-message.js';
import { loadOnce } from '../util/load-once.js';
import { InvalidOutputError } from '../errors/invalid-output-error.js';
import type { History } from './history.js';
import { answerFormat } from './answer-format.js';
import { answerCheck, outputInstructions, type OutputSpec } from './output.js';

// Code only some runs need, loaded on first need (see load-once.ts: callers resume in order).
const resumeCode = loadOnce(() => import('./resume-calls.js'));
const repairCode = loadOnce(() => import('./resume.js'));
const historyCode = loadOnce(() => import('./history.js'));
const contextCode = loadOnce(() => import('./context-fit.js'));
const limitCode = loadOnce(() => import('./iteration-limit.js'));

/** Everything one run's loop works with. */
export interface LoopContext extends DispatchContext {
  runId: string;
  agent: Agent;
  input: string;
  maxIterations: number;
  toolChoice?: ToolChoice;
  /** Start from these messages instead of a stored conversation (a leaf starts from its parent's snapshot). */
  history?: readonly Message[];
  depth: number;
  concurrency: number;
  budget?: ConcurrencyBudget;
  /** What the run shares with its leaves: approvals, call ids, the calls one reply may run. */
  shared: RunShared;
  /** The schema the final answer must match, and the answers that may be tried again. */
  output?: OutputSpec;
  maxOutputRetries?: number;
  /** Continue the conversation's interrupted run instead of starting one on `input`. */
  resume?: boolean;
}

/**
 * The ReAct loop: ask the model, run the calls of its reply, feed the results back in
 * call order, until it answers. A named conversation is appended after each reply and
 * after each batch of results; an abort still records the batch's (aborted) results, so
 * no call is left without one except by a crash, which the next run repairs.
 */
export async function runLoop(ctx: LoopContext): Promise<RunResult> {
  const { agent, signal } = ctx;
  const store = agent.conversations;
  const { messages: history, length: startLength, skipped } = await startingHistory(ctx);
  // Resuming, and repairing what an interrupted run left, load their code only when there is one.
  const resuming = ctx.resume ? await resumeCode() : undefined;
  const resumed = resuming?.resumePoint(history, ctx);
  const opening: Message[] =
    resumed || !endsWithCalls(history)
      ? []
      : await (await repairCode()).repairDanglingCalls(history, ctx.journal, (name) => journalsEveryCall(agent, name), agent.maxResultChars);
  if (!resumed && startLength === 0 && agent.preamble) opening.push({ role: 'system', content: agent.preamble });
  if (!resumed) opening.push({ role: 'user', content: ctx.input });
  const messages = [...history, ...opening];
  // Where the run's user message sits: trimming for a small context never drops it.
  const userAt = resumed ? resumed.userAt : messages.length - 1;
  const save = (step: Message[]) => (ctx.conversation ? store.append(ctx.conversation, step) : Promise.resolve());
  await save(opening);
  ctx.emit({ type: 'run_started', runId: ctx.runId, input: resumed ? resumed.input : ctx.input });

  const toolResults: ToolResult[] = [];
  let usage: Usage | undefined;
  let answers = 0;
  /** Feed a batch of results back: to the model's messages, the run's results and the stored conversation. */
  const finishBatch = async (step: Message[], results: readonly ToolResult[]) => {
    // Suspended: nothing of the batch is stored, so what waited for approval is still asked on resume
    // (the journal holds what non-idempotent calls did).
    if (suspended(signal)) throw new RunSuspendedError();
    messages.push(...step);
    toolResults.push(...results);
    await save(step);
    await settleApprovals(ctx, results);
    if (signal.aborted) throw new RunAbortedError(signal.reason);
  };
  if (resuming && resumed && resumed.calls.length > 0) {
    const results = await resuming.resumeBatch(resumed, ctx, turnScope(ctx, messages));
    await finishBatch(
      results.map((result) => toolMessage(result, agent.maxResultChars)),
      results,
    );
  }
  for (let iteration = 1; ; iteration++) {
    // This turn's conversation, for the engine and the tools alike: the loop appends to `messages`, never to it.
    const scope = turnScope(ctx, messages);
    // On the last allowed turn nothing starts early: calls it asks for are never run.
    const turn = await askModel(ctx, scope, iteration < ctx.maxIterations, { userAt, skipped });
    usage = addUsage(usage, turn.usage);
    const assistant: Message = { role: 'assistant', content: turn.rawText, ...(turn.provider ? { provider: turn.provider } : {}) };
    const wantsMore = turn.calls.length > 0 || turn.errors.length > 0;
    if (wantsMore && iteration >= ctx.maxIterations) {
      // What a stored conversation keeps at the limit: that code loads only for a run that reaches it.
      if (ctx.conversation) await (await limitCode()).stopAtLimit(ctx, toolResults, startLength);
      throw new MaxIterationsError(ctx.maxIterations, toolResults);
    }
    if (turn.calls.length > 0) assistant.toolCalls = turn.calls;
    messages.push(assistant);
    await save([assistant]);
    if (!wantsMore) {
      const text = turn.text.trim();
      const checked = ctx.output ? await ctx.output.check(text) : undefined;
      if (checked && !checked.ok) {
        // Fed back while retries and turns remain: the model reads what was wrong and answers again.
        answers++;
        if (answers > (ctx.maxOutputRetries ?? 0) || iteration >= ctx.maxIterations) throw new InvalidOutputError(checked.problems, text, answers);
        const note = (await answerCheck()).outputNote(checked.problems, agent.maxResultChars);
        messages.push(note);
        await save([note]);
        ctx.emit({ type: 'iteration_finished', iteration, finishReason: turn.finishReason, toolCalls: 0 });
        continue;
      }
      ctx.emit({ type: 'iteration_finished', iteration, finishReason: turn.finishReason, toolCalls: 0 });
      const result: RunResult = { runId: ctx.runId, text, messages, iterations: iteration, toolResults };
      if (skipped > 0) result.skippedMessages = skipped;
      if (checked?.ok) result.output = checked.value;
      if (usage) result.usage = usage;
      return result;
    }
    // Every call of the reply, in call order; early ones are already running.
    const results = await Promise.all(turn.calls.map((call, at) => turn.started.get(call) ?? runOrRefuse(call, at, turn, ctx, scope)));
    const step: Message[] = results.map((result) => toolMessage(result, agent.maxResultChars));
    if (turn.errors.length > 0) step.push(formatErrorMessage(turn.errors, agent.maxResultChars));
    await finishBatch(step, results);
    ctx.emit({ type: 'iteration_finished', iteration, finishReason: turn.finishReason, toolCalls: turn.calls.length });
  }
}

/** One turn's scope: a snapshot of the conversation, tied to what the run shares with its leaves. */
function turnScope(ctx: LoopContext, messages: readonly Message[]): RunScope {
  return linkShared(
    {
      runId: ctx.runId,
      messages: [...messages],
      emit: ctx.emit,
      depth: ctx.depth,
      concurrency: ctx.concurrency,
      ...(ctx.budget ? { budget: ctx.budget } : {}),
    },
    ctx.shared,
  );
}

/** Whether the conversation's last reply asked for calls: only then can some be left without results (see repairDanglingCalls). */
function endsWithCalls(history: readonly Message[]): boolean {
  const reply = history.findLast((m) => m.role === 'assistant');
  return reply?.role === 'assistant' && (reply.toolCalls?.length ?? 0) > 0;
}

/** Whether every started call of a tool has a journal entry: a non-idempotent tool's, and one that always asks (approved calls are journalled). */
function journalsEveryCall(agent: Agent, name: string): boolean {
  const tool = agent.tools.registry.get(name);
  return tool?.idempotent === false || tool?.needsApproval === true;
}

/** What the run starts from: a leaf's snapshot, the stored conversation (or the end of it a request can hold), or nothing. */
async function startingHistory(ctx: LoopContext): Promise<History> {
  if (ctx.history) return { messages: [...ctx.history], length: ctx.history.length, skipped: 0 };
  if (!ctx.conversation) return { messages: [], length: 0, skipped: 0 };
  const { agent } = ctx;
  // Read only as far back as a request can hold where a budget can exist; that code loads only then.
  if (agent.conversations.loadTail && hasBudget(agent)) return (await historyCode()).readHistory(agent, ctx.conversation, ctx.signal);
  const messages = await agent.conversations.load(ctx.conversation);
  return { messages, length: messages.length, skipped: 0 };
}

/** Whether requests may have a context budget: the agent's, or its engine's (a local model's context size). */
function hasBudget(agent: Agent): boolean {
  return agent.context !== undefined || agent.engine.contextBudget !== undefined;
}

/** Whether the run was stopped by `run.suspend()`. */
function suspended(signal: AbortSignal): boolean {
  return signal.aborted && isAmbiError(signal.reason) && signal.reason.code === 'suspended';
}

/** A batch's results are stored: the approval records of its calls are done with (best effort; a stale one is never asked). */
async function settleApprovals(ctx: LoopContext, results: readonly ToolResult[]): Promise<void> {
  const { durable } = ctx;
  if (!durable) return;
  const asked = results.filter((result) => ctx.agent.registry.get(result.name)?.needsApproval).map((result) => result.id);
  if (asked.length > 0) await durable.store.forget(durable.conversation, asked).catch(() => {});
}

/** Run the call at `at` of its reply, or, past the reply's limit, give it a `too_many_calls` result without running it. */
function runOrRefuse(call: KeyedToolCall, at: number, turn: ModelTurn, ctx: LoopContext, scope: RunScope): Promise<ToolResult> | ToolResult {
  const limit = ctx.shared.maxCallsPerReply;
  if (at < limit) return dispatchCall(call, ctx, scope);
  const result = tooManyCalls(call, turn.calls.length, limit);
  ctx.emit({ type: 'tool_finished', result });
  return result;
}

/** One model turn; an engine failure stops the calls that started early before it propagates. */
async function askModel(ctx: LoopContext, scope: RunScope, allowEarly: boolean, at: { userAt: number; skipped: number }): Promise<ModelTurn> {
  const { agent, signal } = ctx;
  if (signal.aborted) throw new RunAbortedError(signal.reason);
  // Made when the first call starts early: a turn that starts none (say the answer) makes no signal,
  // which costs microseconds in Node, nor links it to the run's.
  let early: EarlyCalls | undefined;
  const started: Array<Promise<ToolResult>> = [];
  let calls = 0;
  const tools = agent.registry.definitions();
  try {
    const teach = !agent.engine.nativeTools && tools.length > 0;
    // The call format's instructions are the parser's code: one that loads on demand loads now.
    if (teach) await agent.parser.ready?.();
    const addition = systemAddition(agent, teach ? tools : [], ctx.output);
    // Trimmed for the agent's context budget (the stored conversation keeps everything); the
    // context step loads only where a budget can exist.
    const fitted = !hasBudget(agent)
      ? scope.messages
      : await (await contextCode()).fitContext({
          budget: agent.context,
          engine: agent.engine,
          counter: agent.tokens,
          messages: scope.messages,
          userAt: at.userAt,
          unread: at.skipped,
          addition,
          tools,
          emit: ctx.emit,
          signal,
        });
    const messages = requestMessages(fitted, addition);
    // The parser's tags travel with the request: an engine that constrains its output (a local
    // model's grammar) then writes calls this parser reads, whatever tags it was given.
    const { callTags } = agent.parser;
    // Relaxed here, for every engine: a forced choice holds only for the turn that answers the person.
    const toolChoice = ctx.toolChoice ? effectiveToolChoice(ctx.toolChoice, scope.messages) : undefined;
    const format = ctx.output ? answerFormat(ctx.output.schema, toolChoice) : undefined;
    const request: EngineRequest = {
      messages,
      tools,
      signal,
      ...(toolChoice ? { toolChoice } : {}),
      ...(callTags ? { callTags } : {}),
      ...(format ? { output: format } : {}),
    };
    return await modelTurn({
      agent,
      emit: ctx.emit,
      request,
      callIds: ctx.shared.callIds,
      slotsFull: () => ctx.limiters.some((limiter) => limiter.active >= limiter.limit),
      startEarly: (call) => {
        // A call past the reply's limit never runs, so never starts early either.
        if (++calls > ctx.shared.maxCallsPerReply || !allowEarly || !mayStartEarly(call, agent.tools)) return undefined;
        early ??= earlyCalls(ctx);
        const running = dispatchCall(call, early.ctx, scope);
        started.push(running);
        return running;
      },
    });
  } catch (error) {
    early?.controller.abort(error);
    await Promise.all(started);
    if (signal.aborted) throw new RunAbortedError(signal.reason);
    throw isAmbiError(error) ? error : wrapEngineFailure(error);
  } finally {
    // Calls that started early outlive the turn: they stay linked to the run's signal until they settle.
    if (early) void Promise.all(started).finally(early.unlink);
  }
}

/** The context of a turn's early calls: their signal is the run's, and also aborts when the turn's engine fails. */
type EarlyCalls = ChildController & { ctx: DispatchContext };

function earlyCalls(ctx: LoopContext): EarlyCalls {
  const child = childController(ctx.signal);
  return { ...child, ctx: { ...ctx, signal: child.controller.signal } };
}

/** What the system prompt gains for one request: the call format for `definitions` (given when calls travel as text), and the answer's schema. */
function systemAddition(agent: Agent, definitions: readonly ToolDefinition[], output: OutputSpec | undefined): string {
  const parts: string[] = [];
  if (definitions.length > 0) parts.push(agent.parser.instructions(definitions));
  if (output) parts.push(outputInstructions(output.schema));
  return parts.join('\n\n');
}

/** The messages one request sends (the turn's snapshot, trimmed): the system prompt carries `addition`. */
function requestMessages(messages: readonly Message[], addition: string): readonly Message[] {
  if (!addition) return messages;
  const [first, ...rest] = messages;
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${addition}` }, ...rest];
  return [{ role: 'system', content: addition }, ...messages];
}

function addUsage(total: Usage | undefined, turn: Usage | undefined): Usage | undefined {
  if (!turn) return total;
  if (!total) return { ...turn };
  return {
    promptTokens: total.promptTokens + turn.promptTokens,
    completionTokens: total.completionTokens + turn.completionTokens,
    totalTokens: total.totalTokens + turn.totalTokens,
  };
}

function wrapEngineFailure(error: unknown): EngineError {
  const message = errorMessage(error);
  return new EngineError('engine_error', `The engine failed: ${message}`, { cause: error });
}
