import type { Usage } from '../../core/types.js';
import type { PartKinds } from '../../core/parts.js';

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
      /** The token counts the reply reports, as a server's would (without them, the runner estimates). */
      usage?: Usage;
    };

/** A plain-data engine that replays fixed replies: for tests and demos without a model. */
export interface ScriptedEngineConfig {
  kind: 'scripted';
  replies: ScriptedReply[];
  /** The parts beyond text it takes (default: images and files, as a model that sees would; `{}` plays a text-only model). */
  accepts?: PartKinds;
}

/** What `scriptedEngine` takes beside its replies. */
export interface ScriptedEngineOptions {
  /** The parts beyond text the scripted model takes (default `{ image: true, file: true }`; `{}`: a text-only model). */
  accepts?: PartKinds;
}

/**
 * Describe an engine that serves `replies` in order to every request made to it: for tests,
 * offline demos and examples. A reply is text, tool calls, or an HTTP error as a server would send it
 * (that request fails with an `EngineHttpError`, and the next request gets the next reply).
 *
 * @example
 * ```ts
 * import { createWorkerRunner, defineTool, scriptedEngine } from 'ambi-web/worker';
 *
 * const engine = scriptedEngine([
 *   { toolCalls: [{ name: 'double', arguments: { n: 21 } }] },
 *   'It is 42.',
 * ]);
 * const double = defineTool({
 *   name: 'double', description: 'Twice n', readOnly: true,
 *   parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
 *   call: ({ n }) => 2 * n,
 * });
 * const { text, toolResults } = await createWorkerRunner({ engine }).tool(double).run('Double 21').result;
 * console.log(text, toolResults[0]); // 'It is 42.', { name: 'double', ok: true, output: 42, … }
 * ```
 */
export function scriptedEngine(replies: readonly ScriptedReply[], options: ScriptedEngineOptions = {}): ScriptedEngineConfig {
  return { kind: 'scripted', replies: [...replies], ...(options.accepts ? { accepts: { ...options.accepts } } : {}) };
}
