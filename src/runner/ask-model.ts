import type { Message, ToolResult } from '../core/types.js';
import type { RunCall } from '../call/types.js';
import { isAmbiError } from '../errors/ambi-error.js';
import { EngineError } from '../errors/engine-error.js';
import { errorMessage } from '../errors/error-message.js';
import { RunAbortedError } from '../errors/run-aborted-error.js';
import type { TurnRequest } from './extension.js';
import type { LoopContext } from './loop-context.js';
import { modelTurn, type ModelTurn } from './model-turn.js';
import { effectiveToolChoice } from './tool-choice.js';
import type { TurnScope } from './turn-scope.js';

/**
 * One model turn: the request made (the extensions' `beforeTurn` first), the reply streamed, the
 * calls that may start while it streams started. An engine failure stops the calls that started
 * early before it propagates.
 */
export async function askModel(
  ctx: LoopContext,
  messages: readonly Message[],
  scope: TurnScope,
  at: { iteration: number; userAt: number },
): Promise<ModelTurn> {
  const { setup, extensions } = ctx;
  const { agent, signal } = setup;
  if (signal.aborted) throw new RunAbortedError(signal.reason);
  const allowEarly = at.iteration < ctx.maxIterations;
  // Calls started early stop with the run, or with this turn should its engine fail: one signal of both.
  let early: { stop: AbortController; signal: AbortSignal } | undefined;
  const started: Array<Promise<ToolResult>> = [];
  let calls = 0;
  // Settles once the reply ended: nobody is asked about a call read from it before then.
  let replyEnded = () => {};
  const replyRead = new Promise<void>((resolve) => (replyEnded = resolve));
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
    return await modelTurn({
      agent,
      emit: ctx.call.emit,
      request: engineRequest,
      callIds: ctx.shared.callIds,
      slotsFull: () => ctx.call.limiters.some((limiter) => limiter.active >= limiter.limit),
      startEarly: (call) => {
        // A call past the reply's limit never runs, so never starts early either.
        if (++calls > ctx.shared.maxCallsPerReply || !allowEarly || !mayStartEarly(call, ctx)) return undefined;
        if (!early) {
          const stop = new AbortController();
          early = { stop, signal: AbortSignal.any([signal, stop.signal]) };
        }
        const running = agent.tools.execute(call, { run: { ...ctx.call, signal: early.signal, replyRead }, scope });
        started.push(running);
        return running;
      },
    });
  } catch (error) {
    early?.stop.abort(error);
    // The reply ended, if cut short: the calls it started report (their results wait for its end) before the turn fails.
    replyEnded();
    await Promise.all(started);
    if (signal.aborted) throw new RunAbortedError(signal.reason);
    throw isAmbiError(error) ? error : wrapEngineFailure(error);
  } finally {
    replyEnded();
  }
}

/**
 * Whether a call may start while the reply still streams: side effects never start from a partial
 * stream, nor a call its tool asks about, nor one that makes calls of its own (`delegates`), which may.
 */
function mayStartEarly(call: RunCall, ctx: LoopContext): boolean {
  const tool = ctx.setup.agent.registry.get(call.name);
  return tool?.idempotent === true && !tool.needsApproval && !tool.delegates;
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
