// What a run reports and gives back: types only, read by every floor that follows a run (the
// page of a WorkerRunner, UI adapters, traces), so none of them imports the runner for them.
import type { AmbiErrorCode } from './codes.js';
import type { FinishReason, InputRequest, JsonValue, Message, ParseError, RunUsage, ToolCall, ToolResult, Usage } from './types.js';
import type { MediaPart } from './parts.js';

/**
 * What a run reports as it goes, in order. `leafId` marks an event that comes from a leaf run;
 * `parentCallId` one of a call a Code Mode program made (the `run_code` call's id).
 */
export type RunEvent =
  /** `parentCallId`: for a leaf, the `spawn_leaf` call that started it. */
  (
    | { type: 'run_started'; runId: string; input: string; parentCallId?: string }
    | { type: 'text_delta'; text: string }
    /**
     * `untrusted`: the call is tainted: proposed in a turn whose request held untrusted content,
     * or (`held`) carrying held values in its arguments.
     */
    | { type: 'tool_call'; call: ToolCall; untrusted?: { sources: UntrustedSource[]; held?: HeldArgument[] } }
    | { type: 'format_error'; error: ParseError }
    /** `untrusted`: the call is tainted, and which arguments came from the untrusted content. */
    | { type: 'approval_requested'; call: ToolCall; untrusted?: UntrustedContext }
    /** `standing`: a standing decision of the conversation decided, nobody was asked. */
    | { type: 'approval_resolved'; callId: string; approved: boolean; reason?: string; standing?: true }
    | { type: 'tool_started'; callId: string; name: string; attempt: number }
    | { type: 'tool_retry'; callId: string; name: string; attempt: number; nextAttempt: number; delayMs: number }
    | { type: 'tool_finished'; result: ToolResult }
    /**
     * A running call waits for a person's answers: its server asked for them (MCP's `input_required`).
     * Answer with `run.respond(callId, values)` (or refuse with `null`). The requests' words are the
     * server's (`untrusted` names it): show them as text, never as instructions.
     */
    | { type: 'input_requested'; callId: string; name: string; requests: InputRequest[]; untrusted: { source: string } }
    /** A running call reports how far it is (an MCP server's progress notifications). */
    | { type: 'tool_progress'; callId: string; progress: number; total?: number; message?: string }
    /** One model request answered: what it used (the server's counts, or an estimate marked `estimated`). */
    | { type: 'usage'; usage: Usage }
    /**
     * Before a model turn: the oldest messages were left out of the request to fit the context budget
     * (the stored conversation keeps them). `droppedMessages` counts them all, those a run on a long
     * conversation did not read included; `tokensBefore` counts what the run read.
     */
    | { type: 'context_trimmed'; droppedMessages: number; tokensBefore: number; tokensAfter: number }
    /** `untrusted`: the turn was exposed (its request held untrusted content), and which marked messages it held. */
    | { type: 'iteration_finished'; iteration: number; finishReason: FinishReason; toolCalls: number; untrusted?: { sources: UntrustedSource[] } }
    | { type: 'run_finished'; result: RunResult }
    | { type: 'run_failed'; error: RunFailure }
    /**
     * Something went wrong that did not change the run's outcome (say a leaf's snapshot could not
     * be updated; `mcp_tool_changed`: an MCP server changed a tool's definition, which is withdrawn).
     */
    | { type: 'warning'; code: string; message: string }
    /** The model is being downloaded before it answers (the browser's built-in model): `loaded` of `total`, growing to `total`. */
    | { type: 'model_download'; loaded: number; total: number }
  ) & { leafId?: string; parentCallId?: string };

/** Why a run failed, as its `run_failed` event carries it: plain data, so it crosses a worker intact. */
export interface RunFailure {
  code: AmbiErrorCode;
  message: string;
  /** The error class's name (`MaxIterationsError`, `EngineHttpError`, …). */
  name?: string;
  /** The error's own data fields (`status`, `retryAfterMs`, `toolResults`, …), where it has any. */
  details?: Record<string, unknown>;
}

/** What a finished run gives back; `Output` is the type of `output` when the run was given an `output` schema. */
export interface RunResult<Output = unknown> {
  runId: string;
  /** The model's final answer (text outside any tool-call tags). */
  text: string;
  /**
   * The conversation after the run, system prompt first: the whole of it, except when a context
   * budget let the run read only the end of a long stored conversation (see `skippedMessages`).
   */
  messages: Message[];
  /** Stored messages before the end the run read, not in `messages` (and never sent); absent when none. */
  skippedMessages?: number;
  /** Model turns taken. */
  iterations: number;
  /** Every call of the run, in call order. */
  toolResults: ToolResult[];
  /**
   * Tokens summed over every model request of the run, its leaves' and any extra request
   * included (the server's counts; an estimate where a server gave none: `estimated`).
   */
  usage?: RunUsage;
  /** The final answer parsed and validated against the run's `output` schema (for a Standard Schema: its parsed value). */
  output?: Output;
  /**
   * In `untrusted: 'hold'` mode: the held values the answer refers to (`$N` in its text), in the
   * order it first names them, for the app to render as untrusted content. Absent in `'mark'` mode.
   */
  held?: HeldValue[];
}

/** A held value as the app gets it (`RunResult.held`): its id, the tool whose result it is, and the value itself. */
export interface HeldValue {
  id: string;
  from: string;
  value: JsonValue;
  /** The images or files held with it (a tool's parts), for the app to show as untrusted content. */
  parts?: MediaPart[];
}

/** A held value a call's arguments carry: where it is (a JSON Pointer into the arguments as the tool receives them), its id, and the tool it came from. */
export interface HeldArgument {
  path: string;
  id: string;
  from: string;
}

/**
 * Untrusted content a model turn's request held. Without `kind`: a marked tool message, the result
 * of call `callId` of tool `name`. `kind: 'reply'`: a message written from a reply the model gave
 * after reading untrusted content (`callId` `''`; `name` `'assistant'`, or `'runtime'` for the
 * runtime's note on that reply). `kind: 'definitions'`: tool definitions written by someone other
 * than the app, offered in the request (`callId` `''`; `name` who wrote them, `tools` the names offered).
 */
export interface UntrustedSource {
  /** The call whose result it is; `''` for a source that is no call's result. */
  callId: string;
  /** The tool whose result it is; for other kinds, see `kind`. */
  name: string;
  kind?: 'reply' | 'definitions';
  /** For `kind: 'definitions'`: the tools whose definitions the request offered, as registered. */
  tools?: string[];
}

/** A string argument of at least 8 characters found verbatim in an untrusted source: its JSON Pointer, and the source's call id. */
export interface UntrustedFlow {
  path: string;
  from: string;
}

/**
 * Why a tainted call is asked about: the untrusted content in its turn's request, and what of it
 * reached the arguments (`flows`); in `untrusted: 'hold'` mode, the held values it carries (`held`).
 * A call tainted only by the held values it carries (its turn read nothing untrusted) has no
 * `flows`: `{ sources, held }`, its sources the calls whose results they are.
 */
export interface UntrustedContext {
  sources: UntrustedSource[];
  flows?: UntrustedFlow[];
  held?: HeldArgument[];
}
