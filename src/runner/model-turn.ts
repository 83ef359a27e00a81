import type { EngineRequest } from '../engines/types.js';
import type { FinishReason, ParseError, Usage } from '../core/types.js';
import type { ParsePart } from '../parser/types.js';
import type { ToolCall, ToolResult } from '../core/types.js';
import { keepableArgs } from '../validation/args-depth.js';
import { newIdempotencyKey } from '../util/ids.js';
import { inWorker, nextTask } from '../util/next-task.js';
import type { Engine } from '../engines/types.js';
import type { ToolCallParser } from '../parser/types.js';
import type { CallIds } from './call-ids.js';
import type { RunEvent } from '../core/run.js';
import type { RunCall } from '../call/types.js';
import { requestUsage } from './request-usage.js';

/** One model reply, streamed to its end. */
export interface ModelTurn {
  /** Text outside tool-call tags: what a person reads. */
  text: string;
  /** Everything the model wrote, tags included: what the model reads back. */
  rawText: string;
  calls: RunCall[];
  errors: ParseError[];
  finishReason: FinishReason;
  /** What the request used: the server's counts, or an estimate (`estimated`). */
  usage?: Usage;
  provider?: Record<string, unknown>;
  /** Calls already started while the reply streamed (idempotent ones only), by call. */
  started: Map<RunCall, Promise<ToolResult>>;
}

export interface TurnContext {
  /** The agent's model and how its calls are read from text. */
  agent: { readonly engine: Engine; readonly parser: ToolCallParser };
  request: EngineRequest;
  emit: (event: RunEvent) => void;
  /** The run's call ids: each call is named here before anything sees it. */
  callIds: CallIds;
  /** Start this call now rather than after the reply, or return undefined to wait. */
  startEarly: (call: RunCall) => Promise<ToolResult> | undefined;
  /** Whether every slot of the run is taken: a call read now could not start before one ends. */
  slotsFull: () => boolean;
}

/**
 * In a worker, how long a reply is read without a break once a call has started early and every
 * slot is taken: past it, reading waits for the tasks already queued (a started call's answer from
 * the page) before going on, so a reply of hundreds of calls that arrive at once does not hold up
 * the results of the first ones: the rest is read while they run. While a slot is free, calls read
 * together start together; on the page's thread a reply is read in one go.
 */
const SLICE_MS = 0.05;

/**
 * Stream one reply: text deltas out as they come, tagged calls parsed as they close,
 * native calls as the engine completes them. Calls that may start early start here.
 */
export async function modelTurn(ctx: TurnContext): Promise<ModelTurn> {
  const { agent, emit } = ctx;
  const parser = agent.parser.stream();
  const turn: ModelTurn = { text: '', rawText: '', calls: [], errors: [], finishReason: 'stop', started: new Map() };
  // When the current slice of reading began (0: no call has started early yet; see SLICE_MS).
  let slice = 0;
  let reported: Usage | undefined;
  const take = (parts: readonly ParsePart[]) => {
    for (const part of parts) {
      if (part.type === 'text') {
        turn.text += part.text;
        emit({ type: 'text_delta', text: part.text });
      } else if (part.type === 'call') addCall(part.call);
      else {
        turn.errors.push(part.error);
        emit({ type: 'format_error', error: part.error });
      }
    }
  };
  const addCall = (read: ToolCall) => {
    // A call of its own, whatever the engine shares: renamed here, its events, approval, journal
    // entry, stored message and result all carry the one id the run gave it.
    // Field by field: a spread into a literal is V8's slow path, and a reply may hold hundreds of calls.
    const call: RunCall = {
      id: ctx.callIds.claim(read.id),
      name: read.name,
      arguments: keepableArgs(read.arguments),
      idempotencyKey: read.idempotencyKey ?? newIdempotencyKey(),
    };
    if (read.provider !== undefined) call.provider = read.provider;
    turn.calls.push(call);
    emit({ type: 'tool_call', call });
    const running = ctx.startEarly(call);
    if (running) {
      turn.started.set(call, running);
      if (slice === 0 && inWorker) slice = performance.now();
    }
  };

  for await (const event of agent.engine.stream(ctx.request)) {
    if (slice > 0 && performance.now() - slice > SLICE_MS && ctx.slotsFull()) {
      await nextTask();
      slice = performance.now();
    }
    switch (event.type) {
      case 'text': {
        turn.rawText += event.text;
        take(parser.push(event.text));
        break;
      }
      case 'tool_call':
        addCall(event.call);
        break;
      case 'usage':
        // The last one counts (a server may report a growing usage); it is emitted once, below.
        reported = event.usage;
        break;
      case 'warning':
        emit({ type: 'warning', code: event.code, message: event.message });
        break;
      case 'download':
        emit({ type: 'model_download', loaded: event.loaded, total: event.total });
        break;
      case 'finish':
        turn.finishReason = event.reason;
        if (event.provider) turn.provider = event.provider;
        break;
    }
  }
  take(parser.end());
  // One `usage` event per request that answered: the server's counts, or an estimate.
  const { usage, problem } = requestUsage(reported, ctx.request, turn);
  if (problem) emit({ type: 'warning', code: 'invalid_usage', message: problem });
  turn.usage = usage;
  emit({ type: 'usage', usage });
  return turn;
}
