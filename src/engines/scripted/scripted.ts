/** One scripted tool call; a missing `id` is filled with a fresh one when the reply is served. */
export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: unknown;
}

/** One scripted model reply, in order. */
export type ScriptedReply =
  /** Model text, streamed in a few pieces; it may hold tagged tool calls for the runner's parser. */
  | string
  | {
      text?: string;
      /** Native calls: each becomes a `tool_call` event, and the turn finishes with `tool_calls`. */
      toolCalls?: ScriptedToolCall[];
      /** Fail this request as the server would, with an `EngineHttpError` of this status and message (and Retry-After, in ms). */
      error?: { status: number; message: string; retryAfterMs?: number };
      /** Wait this long before replying (abortable). */
      delayMs?: number;
    };

/** A plain-data engine that replays fixed replies: for tests and demos without a model. */
export interface ScriptedEngineConfig {
  kind: 'scripted';
  replies: ScriptedReply[];
}

/** Describe an engine that serves `replies` in order to every request made to it. */
export function scriptedEngine(replies: readonly ScriptedReply[]): ScriptedEngineConfig {
  return { kind: 'scripted', replies: [...replies] };
}
