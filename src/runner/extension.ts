/**
 * The run's one extension point. Everything a run does that is not the loop itself is a
 * RunExtension: the loop calls each hook at its point, in the order the extensions were given,
 * and names none of them. An extension is made per run (see ExtensionLoader), so it keeps that
 * run's state in itself. Eight hooks, each used by two features or more:
 *
 *   open         once, before the history is read: where it is read from, results and messages
 *                to add first, the reply of an earlier run to continue      resume, context budgets, untrusted content
 *   beforeTurn   before each model request: trim it, add instructions,
 *                check a budget                                              typed answers, context budgets, untrusted content, token budget
 *   afterTurn    after each model reply, before it is kept: adorn it, add
 *                notes, have the model answer again or fail the run         typed answers, untrusted content
 *   beforeCall   in a call's screen stage (src/call/screen.ts), before
 *                validation: put in what the arguments refer to, refuse,
 *                or say a person must see it                                 untrusted content, hold mode, apps' own (rate limits)
 *   afterCall    in a call's result stage, before the model reads it         untrusted content, hold mode, parts
 *   event        each event of the run, as it is emitted: adorn it, watch it  untrusted content, traces, notices
 *   result       the run's result, before it is given back: adorn it         typed answers, hold mode
 *   end          once, when the run settles, whatever the outcome            traces, notices
 */
import type { RunEvent, RunResult } from '../core/run.js';
import type { AssistantMessage, FinishReason, Message, ToolResult, Usage } from '../core/types.js';
import type { CallVerdict, Recorded, RunCall } from '../call/types.js';
import type { EngineRequest } from '../engines/types.js';

export interface RunExtension {
  /** A name for warnings and debugging. */
  readonly name: string;
  /** How the run starts (see RunStart): change it in place. */
  open?(start: RunStart): void | Promise<void>;
  /** One model request before it is sent (see TurnRequest): change it in place, or throw to end the run. */
  beforeTurn?(request: TurnRequest): void | Promise<void>;
  /** One model reply before it is kept (see TurnEnd): change it in place. */
  afterTurn?(turn: TurnEnd): void | Promise<void>;
  /**
   * A call and its decoded arguments, before validation: a verdict (run, with arguments to use
   * instead; ask; refuse), or undefined for no say. Return undefined synchronously where you have
   * nothing to say: the call then waits on nothing.
   */
  beforeCall?(call: RunCall, args: unknown): CallVerdict | undefined | Promise<CallVerdict | undefined>;
  /**
   * A call's result before the model reads it: return it as it is, or changed (a mark, a value
   * held). `replyRead`, for a call started while its reply still streams: settles once that reply
   * ended (its usage counted, its turn kept); await it where what you do depends on the turn. The
   * result waits for nothing else: an extension that does not await it lets an early call report early.
   */
  afterCall?(call: RunCall, result: ToolResult, replyRead?: Promise<void>): ToolResult | Promise<ToolResult>;
  /** Each event as it is emitted: return it as it is, or adorned. Synchronous: nothing waits. */
  event?(event: RunEvent): RunEvent;
  /** The run's result, before it is given back (and before `end`): return it as it is, or adorned. */
  result?(result: RunResult): RunResult | Promise<RunResult>;
  end?(outcome: RunOutcome): void | Promise<void>;
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

/** How a run starts, as the extensions see it in `open`, in order: each may change it in place. */
export interface RunStart {
  /** The history the run reads, read once, when first asked for (by an extension, or by the loop after every `open`). */
  history(): Promise<History>;
  /** Read the history with `reader` instead of the whole stored conversation (the end a request can hold); only before it was read. */
  readWith(reader: () => Promise<History>): void;
  /**
   * Results for calls an earlier run left without one (a recorded result, or what became of the
   * call), added to the conversation before anything else. Each goes through the extensions'
   * `afterCall` first, as any call's result does (a mark, a quarantine): a recorded result is the tool's own.
   */
  readonly results: Array<{ call: RunCall; result: ToolResult }>;
  /** Messages added to the conversation after those results, before anything else. */
  readonly messages: Message[];
  /** The reply of an earlier run this one continues instead of starting on its input: its calls first, then the model. */
  continues?: Continuation;
}

/** A reply of an earlier run that a run continues: its calls without a result, and the person's message it answers. */
export interface Continuation {
  /** Each call left without a result, in call order: run again (with what its record says), or answered with its recorded result. */
  calls: ContinuedCall[];
  /** How many calls the reply made: its limit (`maxCallsPerReply`) still holds. */
  replyCalls: number;
  /** Where the run's user message sits in the history (trimming for a small context never drops it). */
  userAt: number;
  input: string;
}

/** One call of a continued reply: where it sits in its reply, and either its result or what its record says. */
export interface ContinuedCall {
  call: RunCall;
  position: number;
  result?: ToolResult;
  recorded?: Recorded;
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

/** One model reply as the extensions see it before it is kept (`afterTurn`): they may change it in place. */
export interface TurnEnd {
  /** Which turn of the run this is (1-based), and whether the run may take another. */
  readonly iteration: number;
  readonly lastTurn: boolean;
  /** What a person reads of the reply (outside calls), trimmed. */
  readonly text: string;
  /** The calls the reply made (empty for an answer). */
  readonly calls: readonly RunCall[];
  readonly finishReason: FinishReason;
  readonly usage?: Usage;
  /** The message kept for the reply: replace it to adorn it. */
  reply: AssistantMessage;
  /** The runtime's notes on the reply (calls it could not read, an answer to give again), kept after it: add to them, adorn them. */
  notes: Message[];
  /** For an answer (no calls): have the model answer again (after the notes), or end the run with this error. */
  again?: boolean;
  failure?: unknown;
}

/** How a run ended, for `end`. */
export type RunOutcome = { ok: true; result: RunResult } | { ok: false; error: unknown };
