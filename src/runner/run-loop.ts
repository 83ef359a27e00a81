import type { RunResult } from '../core/run.js';
import type { AssistantMessage, Message, ToolResult } from '../core/types.js';
import type { Recorded, RunCall } from '../call/types.js';
import { toolMessage } from '../call/result.js';
import { isAmbiError } from '../errors/ambi-error.js';
import { MaxIterationsError } from '../errors/max-iterations-error.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import { RunSuspendedError } from '../errors/run-suspended-error.js';
import { askModel } from './ask-model.js';
import type { LoopContext } from './loop-context.js';
import type { Continuation, TurnEnd } from './extension.js';
import { formatErrorMessage } from './format-note.js';
import { stopAtLimit } from './iteration-limit.js';
import { tooManyCalls } from './reply-limit.js';
import { Start } from './run-start.js';
import { TurnScope, type ScopeRun } from './turn-scope.js';

/**
 * The ReAct loop: ask the model, run the calls of its reply, feed the results back in call
 * order, until it answers. A named conversation is appended after each reply and after each
 * batch of results; an abort still records the batch's (aborted) results, so no call is left
 * without one except by a crash, which the next run repairs (see the resume extension).
 */
export async function runLoop(ctx: LoopContext): Promise<RunResult> {
  const { setup, extensions, state } = ctx;
  const { agent, signal } = setup;
  const conversation = setup.options.conversation;
  const start = new Start(setup);
  await extensions.open(start);
  const history = await start.history();
  state.startLength = history.length;
  // Ids unique within the conversation as far as the run reads it: a call never takes the id of one
  // already there (whose record, say, it could otherwise be mistaken for).
  for (const message of history.messages) if (message.role === 'assistant') for (const call of message.toolCalls ?? []) ctx.shared.callIds.claim(call.id);
  const { continues } = start;
  // Results for calls an earlier run left pass the result stage's hooks, as any result does.
  const reported = await Promise.all(start.results.map(({ call, result }) => extensions.after(call, result)));
  const added: Message[] = [...reported.map((result) => toolMessage(result, agent.maxResultChars)), ...start.messages];
  if (!continues && history.length === 0 && agent.preamble) added.push({ role: 'system', content: agent.preamble });
  if (!continues) added.push({ role: 'user', content: setup.content ? [...setup.content] : setup.input });
  const messages = [...history.messages, ...added];
  // Where the run's user message sits: trimming for a small context never drops it.
  const userAt = continues ? continues.userAt : messages.length - 1;
  const save = (step: Message[]) => (conversation !== undefined ? agent.conversations.append(conversation, step) : Promise.resolve());
  await save(added);
  ctx.call.emit({ type: 'run_started', runId: setup.runId, input: continues ? continues.input : setup.input });

  const scopeRun = scopeRunOf(ctx);
  /** Feed a batch of results back: to the model's messages, the run's results and the stored conversation. */
  const finishBatch = async (step: Message[], results: readonly ToolResult[]) => {
    // Suspended: nothing of the batch is stored, so what waited for approval is still asked on resume
    // (the journal holds what journalled calls did).
    if (suspended(signal)) throw new RunSuspendedError();
    messages.push(...step);
    state.toolResults.push(...results);
    await save(step);
    if (signal.aborted) throw new RunAbortedError(signal.reason);
  };
  if (continues && continues.calls.length > 0) {
    const results = await runContinued(continues, ctx, new TurnScope(scopeRun, messages));
    await finishBatch(
      results.map((result) => toolMessage(result, agent.maxResultChars)),
      results,
    );
  }
  for (let iteration = 1; ; iteration++) {
    state.iteration = iteration;
    const scope = new TurnScope(scopeRun, messages);
    // On the last allowed turn nothing starts early: calls it asks for are never run.
    const turn = await askModel(ctx, messages, scope, { iteration, userAt });
    const wantsMore = turn.calls.length > 0 || turn.errors.length > 0;
    const lastTurn = iteration >= ctx.maxIterations;
    if (wantsMore && lastTurn) {
      if (conversation !== undefined) await stopAtLimit({ conversation, agent, maxIterations: ctx.maxIterations }, state.toolResults, history.length);
      throw new MaxIterationsError(ctx.maxIterations, [...state.toolResults]);
    }
    const reply: AssistantMessage = { role: 'assistant', content: turn.rawText, ...(turn.provider ? { provider: turn.provider } : {}) };
    if (turn.calls.length > 0) reply.toolCalls = turn.calls;
    const end: TurnEnd = {
      iteration,
      lastTurn,
      text: turn.text.trim(),
      calls: turn.calls,
      finishReason: turn.finishReason,
      ...(turn.usage ? { usage: turn.usage } : {}),
      reply,
      notes: turn.errors.length > 0 ? [formatErrorMessage(turn.errors, agent.maxResultChars)] : [],
    };
    await extensions.afterTurn(end);
    messages.push(end.reply);
    if (!wantsMore) {
      messages.push(...end.notes);
      await save([end.reply, ...end.notes]);
      if (end.failure !== undefined) throw end.failure;
      ctx.call.emit({ type: 'iteration_finished', iteration, finishReason: turn.finishReason, toolCalls: 0 });
      // The model reads what was wrong with its answer and answers again.
      if (end.again) continue;
      const result: RunResult = { runId: setup.runId, text: end.text, messages, iterations: iteration, toolResults: state.toolResults };
      if (history.skipped > 0) result.skippedMessages = history.skipped;
      const usage = ctx.usage.total();
      if (usage) result.usage = usage;
      return extensions.result(result);
    }
    await save([end.reply]);
    // Every call of the reply, in call order; early ones are already running.
    const results = await Promise.all(turn.calls.map((call, at) => turn.started.get(call) ?? runOrRefuse(call, at, turn.calls.length, ctx, scope)));
    await finishBatch([...results.map((result) => toolMessage(result, agent.maxResultChars)), ...end.notes], results);
    ctx.call.emit({ type: 'iteration_finished', iteration, finishReason: turn.finishReason, toolCalls: turn.calls.length });
  }
}

/** What every turn's scope of this run shares. */
function scopeRunOf(ctx: LoopContext): ScopeRun {
  const { setup, call } = ctx;
  return {
    runId: setup.runId,
    emit: call.emit,
    depth: setup.depth,
    concurrency: ctx.concurrency,
    budget: call.limiters[1],
    shared: ctx.shared,
    journal: call.journal,
    view: ctx.state,
    pipeline: { tools: setup.agent.tools, run: call },
  };
}

/** Whether the run was stopped by `run.suspend()`. */
function suspended(signal: AbortSignal): boolean {
  return signal.aborted && isAmbiError(signal.reason) && signal.reason.code === 'suspended';
}

/** Run the call at `at` of its reply, or, past the reply's limit, give it a `too_many_calls` result without running it. */
function runOrRefuse(call: RunCall, at: number, replyCalls: number, ctx: LoopContext, scope: TurnScope, recorded?: Recorded): Promise<ToolResult> | ToolResult {
  const limit = ctx.shared.maxCallsPerReply;
  if (at < limit) return ctx.setup.agent.tools.execute(call, { run: ctx.call, scope, ...(recorded ? { recorded } : {}) });
  const result = tooManyCalls(call, replyCalls, limit);
  ctx.call.emit({ type: 'tool_finished', result });
  return result;
}

/**
 * The calls of a continued reply, in call order: run again with what their records say, or,
 * where a result is recorded, that result (through the result stage's hooks, as any result).
 */
function runContinued(continues: Continuation, ctx: LoopContext, scope: TurnScope): Promise<ToolResult[]> {
  const { replyCalls } = continues;
  const limit = ctx.shared.maxCallsPerReply;
  return Promise.all(
    continues.calls.map(async ({ call, position, result, recorded }) => {
      ctx.state.inFlight.set(call.id, call);
      if (!result || position >= limit) return runOrRefuse(call, position, replyCalls, ctx, scope, recorded);
      const final = await ctx.extensions.after(call, result);
      ctx.call.emit({ type: 'tool_finished', result: final });
      return final;
    }),
  );
}
