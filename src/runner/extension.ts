/**
 * The run's one extension point. Everything a run does that is not the loop itself (resume,
 * context budgets, typed answers, untrusted content, traces, notices from outside the run)
 * is a RunExtension: the loop calls each hook at its point, in the order the extensions were
 * given, and names none of them. An extension is made per run (see ExtensionLoader), so it
 * keeps that run's state in itself.
 *
 *   open         once, after the history is read: messages to add first, or a run to resume
 *   beforeTurn   before each model request: trim it, add instructions, check a budget
 *   afterTurn    after each model reply, before its calls run
 *   holdsCall    as a call is read from a reply that still streams: whether it must wait for the whole reply
 *   resolveArguments  in a call's resolve stage, before validation: put in what its arguments refer to (src/call/resolve.ts)
 *   beforeCall   in a call's policy stage: run, ask, refuse, or a known result (src/call/policy.ts)
 *   afterCall    in a call's result stage, before the model reads the result
 *   answer       when the model answers without calls: accept the answer, or have it try again
 *   reply        each message written from a model reply (the reply, the runtime's note on it) before it is kept: adorn it
 *   event        each event of the run, as it is emitted: adorn it, or watch it
 *   result       the run's result, before it is given back: adorn it
 *   end          once, when the run settles, whatever the outcome
 *   traceContext a call's W3C trace context, for a tool that passes it to a server (a traced run)
 */
import type { RunEvent, RunResult } from '../core/run.js';
import type { Message, ToolResult } from '../core/types.js';
import type { CallVerdict, ResolvedArguments, RunCall } from '../call/types.js';
import type { EngineRequest } from '../engines/types.js';
import type { ModelTurn } from './model-turn.js';
import type { TraceContext } from '../tools/types.js';

export interface RunExtension {
  /** A name for warnings and debugging. */
  readonly name: string;
  /** Where the run's conversation comes from, if this extension reads it (the first that does decides). */
  readHistory?(): Promise<History> | undefined;
  open?(history: readonly Message[]): Opening | undefined | Promise<Opening | undefined>;
  beforeTurn?(request: TurnRequest): void | Promise<void>;
  afterTurn?(turn: ModelTurn): void | Promise<void>;
  /**
   * Whether a call read while the reply still streams must not start before the reply ends, though
   * its tool would let it (say, a person may have to see it first). Synchronous: the reply is being read.
   */
  holdsCall?(call: RunCall): boolean;
  /**
   * A call's decoded arguments, with what they refer to put in (held values), or why the call ends
   * (nothing runs). Undefined when it changes nothing; synchronous then, so a call waits on nothing.
   */
  resolveArguments?(call: RunCall, args: unknown): ResolvedArguments | Promise<ResolvedArguments | undefined> | undefined;
  beforeCall?(call: RunCall): CallVerdict | undefined | Promise<CallVerdict | undefined>;
  afterCall?(call: RunCall, result: ToolResult): ToolResult | Promise<ToolResult>;
  answer?(text: string, lastTurn: boolean): AnswerVerdict | Promise<AnswerVerdict>;
  /**
   * A message the run writes from the latest model reply (the assistant message itself, or the
   * runtime's note on it: calls it could not read, an answer that did not match), before it joins
   * the conversation and its store: return it as it is, or adorned. Synchronous: nothing waits.
   */
  reply?(message: Message): Message;
  event?(event: RunEvent): RunEvent;
  /** The run's result, before it is given back (and before `end`): return it as it is, or adorned. */
  result?(result: RunResult): RunResult | Promise<RunResult>;
  end?(outcome: RunOutcome): void | Promise<void>;
  /** The W3C trace context of a call of the run or its leaves, for tools that pass it on (the first extension that has one gives it). */
  traceContext?(callId: string): TraceContext | undefined | Promise<TraceContext | undefined>;
}

/** What a run starts from: the stored conversation, or the end of it that a request can hold. */
export interface History {
  /** The messages the run reads: the system prompt first where there is one, then the conversation (or its end). */
  messages: readonly Message[];
  /** How many messages the conversation holds (where the run's own go). */
  length: number;
  /** Stored messages left out of `messages` (never sent). */
  skipped: number;
}

/** How the run opens, where an extension says (see `open`). */
export interface Opening {
  /**
   * Results for calls an interrupted run left without one (a recorded result, or what became of
   * the call), added to the conversation before anything else. Each goes through the extensions'
   * `afterCall` first, as any call's result does (a mark, a quarantine): a recorded result is the tool's own.
   */
  results?: Array<{ call: RunCall; result: ToolResult }>;
  /** Messages added to the conversation before anything else but those results. */
  messages?: Message[];
  /** The interrupted run this one continues instead of starting on its input: its calls run first, then the model. */
  resume?: ResumePoint;
}

/** Where a resumed run picks up: the calls of the interrupted reply without a result, and its person's message. */
export interface ResumePoint {
  calls: RunCall[];
  /** Where each call sits in its reply, and how many calls the reply made: the reply's limit still holds. */
  positions: number[];
  replyCalls: number;
  /** Where the run's user message sits in the history (trimming for a small context never drops it). */
  userAt: number;
  input: string;
}

/** One model request as the extensions see it before it is sent: they may change it in place. */
export interface TurnRequest {
  /** The request as the engine will get it; `messages` is the turn's conversation, not yet carrying `instructions`. */
  engine: EngineRequest;
  /** Text the system prompt gains for this request only (the call format, the answer's schema). */
  instructions: string[];
  /** Where the run's own user message sits in `engine.messages` (a context budget never drops it). */
  userAt: number;
  /** Which turn of the run this is (1-based). */
  iteration: number;
}

/** What an extension says of an answer without calls: keep it (with its checked value), or show the model a note and ask again. */
export type AnswerVerdict = { ok: true; value?: unknown } | { ok: false; note: Message };

/** How a run ended, for `end`. */
export type RunOutcome = { ok: true; result: RunResult } | { ok: false; error: unknown };
