/*
 * Decoding an OpenAI-style `chat.completion.chunk` stream into EngineEvents.
 *
 * Server differences handled here (and in sse-reader.ts, which frames the bytes):
 * - OpenRouter: `: OPENROUTER PROCESSING` keep-alive comments (ignored by the SSE parser);
 *   errors after the 200 arrive as `data: {"error":{code,message}}` → `stream_error`;
 *   `reasoning` plus `reasoning_details` deltas (the details are echoed back, see below).
 * - Azure OpenAI: a first chunk with `choices: []` and `prompt_filter_results`, and
 *   choices that carry only `content_filter_results` (no delta): skipped.
 * - OpenAI with `stream_options.include_usage`: usage comes in a last chunk with empty
 *   `choices`, after the finish_reason chunk. vLLM (continuous usage), llama.cpp and xAI
 *   put usage in other chunks, sometimes every one: the last usage seen is reported once.
 *   Groq's older streams put it in `x_groq.usage`: read too.
 * - finish_reason and usage in the same chunk (llama.cpp, Ollama); `[DONE]` sent, or not
 *   (the stream just closes after the finish_reason): both end normally. A stream that
 *   ends with neither is cut (`stream_cut`). `[DONE]` without a trailing blank line
 *   (llama.cpp) is still seen: the reader flushes the last event.
 * - A server (or proxy) that keeps the connection open after the finish_reason, with no
 *   `[DONE]`: the answer is whole, so reading stops once the usage is in too, or
 *   FINISH_GRACE_MS after the finish. A connection that breaks or goes silent past the
 *   timeout after the finish loses nothing either; a caller's abort and a server-reported
 *   error still fail the request.
 * - Tool calls: deltas merged by `index` (OpenAI, vLLM, DeepSeek, Groq); whole calls in
 *   one chunk (Mistral, Ollama); no `index` at all (Gemini, old Ollama, some proxies);
 *   every call at index 0 with distinct ids (Ollama, Gemini proxies); name repeated as ""
 *   in later pieces (LM Studio); `arguments` as an object. See openai-tool-calls.ts.
 *   Unknown fields on a call (Gemini's `extra_content.google.thought_signature`) are kept
 *   in `call.provider`, so they are echoed back on the next request.
 * - Gemini (and some Ollama versions) finish a tool-call turn with `stop`: reported as
 *   `tool_calls` whenever calls were streamed.
 * - Reasoning never reaches the text: `delta.reasoning_content` (DeepSeek, LM Studio,
 *   older vLLM) is collected into the finish event's `provider.reasoning_content`,
 *   because DeepSeek rejects a follow-up turn without it after a tool call;
 *   `reasoning_details` (OpenRouter) likewise. `delta.reasoning` (Groq, OpenRouter, newer
 *   vLLM) is dropped: Groq answers 400 "property 'reasoning' is unsupported" when it is
 *   echoed back. Mistral's list-shaped `content` keeps only its `text` parts.
 * - Only choice 0 is read (a server honouring `n > 1` streams others we never asked for).
 * - A body sent as one JSON completion instead of SSE (a server or proxy that ignores
 *   `stream: true`) is decoded by `decodeCompletion`.
 */
import { isAmbiError } from '../../errors/ambi-error.js';
import { EngineError } from '../../errors/engine-error.js';
import { parseJsonOr } from '../../parser/parse-json.js';
import type { EngineEvent } from '../types.js';
import type { FinishReason, Usage } from '../../core/types.js';
import { createToolCallMerger } from './tool-calls.js';
import { preview, serverMessage } from './server-message.js';
import type { SseMessage } from './sse-reader.js';
import { asArray, asRecord } from './wire-json.js';

/** Turns parsed chunks into events: text at once; calls, usage and finish when the stream ends. */
export interface ChunkDecoder {
  push(chunk: unknown): EngineEvent[];
  /** A finish_reason arrived: the answer is complete even if the stream then just closes. */
  readonly finished: boolean;
  /** The finish and, in its chunk or after it, the usage arrived: nothing is left to wait for. */
  readonly settled: boolean;
  end(): EngineEvent[];
}

/**
 * How long reading goes on after the finish_reason for the usage chunk (`include_usage`) or
 * `[DONE]`, when the server sends neither and keeps the connection open.
 */
export const FINISH_GRACE_MS = 1000;

/** How `decodeStream` stops the reading it consumes. */
export interface StreamControl {
  /** End the message stream as if the body had ended (the answer is whole and the server holds on). */
  stopReading(): void;
}

/** Decode an SSE message stream into events; throws coded errors for cut, malformed or failed streams. */
export async function* decodeStream(messages: AsyncIterable<SseMessage>, control?: StreamControl): AsyncGenerator<EngineEvent> {
  const decoder = createChunkDecoder();
  const reading = messages[Symbol.asyncIterator]();
  let grace: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  let answered = false;
  try {
    for (;;) {
      let next: IteratorResult<SseMessage>;
      try {
        next = await reading.next();
      } catch (error) {
        // Cut, or silent past the timeout, once the answer is whole: nothing is lost. An abort is the caller's word.
        if (decoder.finished && !isAmbiError(error, 'aborted')) break;
        throw error;
      }
      if (next.done) break;
      const message = next.value;
      if (message.event === 'error') throw streamError(parseJsonOr(message.data, message.data));
      const data = message.data.trim();
      if (data === '[DONE]') {
        done = answered = true;
        break;
      }
      if (data === '' || message.event === 'ping') continue;
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch (cause) {
        // A half-written event at the very end is a cut connection, not a bad server; after the finish, nothing lost.
        if (message.trailing && decoder.finished) break;
        if (message.trailing) throw cutError(cause);
        throw new EngineError('malformed_stream', `The model server sent a data line that is not JSON: ${preview(data, 200)}`, { cause });
      }
      yield* decoder.push(chunk);
      if (decoder.settled) {
        answered = true;
        break;
      }
      if (decoder.finished && control) grace ??= setTimeout(() => control.stopReading(), FINISH_GRACE_MS);
    }
  } finally {
    clearTimeout(grace);
    // Whole: the rest of the body (the server's end, usually right after) is read in the background,
    // so the request ends as the server ends it and the browser logs no net::ERR_ABORTED. Leaving
    // for any other reason (an error, the consumer's break) cancels the body, closing the connection.
    if (answered && control) drainInBackground(reading, control);
    else await reading.return?.();
  }
  if (!done && !decoder.finished) throw cutError();
  yield* decoder.end();
}

/** Read what is left of a whole answer's body, for at most FINISH_GRACE_MS, then cancel it. */
function drainInBackground(reading: AsyncIterator<SseMessage>, control: StreamControl): void {
  const limit = setTimeout(() => control.stopReading(), FINISH_GRACE_MS);
  void (async () => {
    try {
      while (!(await reading.next()).done);
    } catch {
      // A cut or an error after the answer changes nothing.
    } finally {
      clearTimeout(limit);
      await reading.return?.();
    }
  })();
}

/**
 * Decode a whole (non-streamed) chat completion, for servers that ignore `stream: true`. A body
 * without a choice is not an answer: an error the server put in a 200 (`{detail}`, `{message}`,
 * `[{error}]`) is `stream_error`, anything else `malformed_stream`.
 */
export function* decodeCompletion(body: unknown): Generator<EngineEvent> {
  const record = asRecord(body);
  if (record?.error !== undefined && record.error !== null) throw streamError(record);
  const choice = asRecord(asArray(record?.choices)[0]);
  if (!choice) throw notACompletion(body);
  const decoder = createChunkDecoder();
  yield* decoder.push({
    usage: record?.usage,
    choices: [{ index: 0, delta: asRecord(choice.message) ?? {}, finish_reason: choice.finish_reason ?? 'stop' }],
  });
  yield* decoder.end();
}

/** Start decoding the chunks of one response. */
export function createChunkDecoder(): ChunkDecoder {
  const calls = createToolCallMerger();
  let finishReason: FinishReason | undefined;
  let usage: Usage | undefined;
  let reasoningContent: string | undefined;
  let reasoningDetails: Record<string, unknown>[] | undefined;
  const detailsByKey = new Map<string, Record<string, unknown>>();
  let settled = false;

  const takeDelta = (delta: Record<string, unknown>, events: EngineEvent[]) => {
    const text = contentText(delta.content);
    if (text !== '') events.push({ type: 'text', text });
    if (typeof delta.reasoning_content === 'string') reasoningContent = (reasoningContent ?? '') + delta.reasoning_content;
    if (Array.isArray(delta.reasoning_details)) reasoningDetails = mergeDetails(reasoningDetails ?? [], detailsByKey, delta.reasoning_details);
    for (const piece of asArray(delta.tool_calls)) calls.add(piece);
  };

  return {
    push(chunk) {
      const record = asRecord(chunk);
      if (!record) throw new EngineError('malformed_stream', `The model server sent a chunk that is not an object: ${preview(JSON.stringify(chunk), 200)}`);
      if (record.error !== undefined && record.error !== null) throw streamError(record);
      const events: EngineEvent[] = [];
      let chunkUsage = readUsage(record.usage) ?? readUsage(asRecord(record.x_groq)?.usage);
      const choice = choiceZero(record.choices);
      if (choice) {
        const delta = asRecord(choice.delta);
        if (delta) takeDelta(delta, events);
        chunkUsage = readUsage(choice.usage) ?? chunkUsage;
        if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') finishReason = choice.finish_reason;
      }
      usage = chunkUsage ?? usage;
      // Usage before the finish (vLLM's continuous usage) may still grow; from the finish on it is final.
      settled ||= finishReason !== undefined && chunkUsage !== undefined;
      return events;
    },
    get finished() {
      return finishReason !== undefined;
    },
    get settled() {
      return settled;
    },
    end() {
      const merged = calls.finish();
      const events: EngineEvent[] = merged.map((call) => ({ type: 'tool_call', call }));
      if (usage) events.push({ type: 'usage', usage });
      let reason: FinishReason = finishReason ?? 'stop';
      if (merged.length > 0 && reason === 'stop') reason = 'tool_calls';
      const provider: Record<string, unknown> = {};
      if (reasoningContent !== undefined) provider.reasoning_content = reasoningContent;
      if (reasoningDetails !== undefined) provider.reasoning_details = reasoningDetails;
      events.push(Object.keys(provider).length > 0 ? { type: 'finish', reason, provider } : { type: 'finish', reason });
      return events;
    },
  };
}

/** The chunk's choice 0 (a choice without an index is 0): a plain loop, as this runs for every event. */
function choiceZero(choices: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(choices)) return undefined;
  for (const item of choices) {
    const choice = asRecord(item);
    if (choice && (choice.index ?? 0) === 0) return choice;
  }
  return undefined;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  // Mistral's reasoning models stream content as parts; only `text` parts are the answer.
  return asArray(content)
    .map((part) => asRecord(part))
    .map((part) => (part?.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join('');
}

/** OpenRouter streams reasoning_details as pieces sharing an `index`: join their text, keep the rest. */
function mergeDetails(into: Record<string, unknown>[], byKey: Map<string, Record<string, unknown>>, pieces: unknown[]): Record<string, unknown>[] {
  for (const raw of pieces) {
    const piece = asRecord(raw);
    if (!piece) continue;
    // Found by key, not by a scan: a hostile stream may send thousands of details.
    const comparable = piece.type === null || typeof piece.type !== 'object';
    const key = typeof piece.index === 'number' && comparable ? `${piece.index}\u0000${typeof piece.type}\u0000${String(piece.type)}` : undefined;
    const same = key === undefined ? undefined : byKey.get(key);
    if (!same) {
      const detail = { ...piece };
      into.push(detail);
      if (key !== undefined) byKey.set(key, detail);
      continue;
    }
    for (const [key, value] of Object.entries(piece)) {
      if (typeof value === 'string' && typeof same[key] === 'string' && (key === 'text' || key === 'summary' || key === 'data')) same[key] = same[key] + value;
      else if (value !== null && value !== undefined) same[key] = value;
    }
  }
  return into;
}

function readUsage(value: unknown): Usage | undefined {
  const record = asRecord(value);
  if (!record) return undefined;
  const prompt = typeof record.prompt_tokens === 'number' ? record.prompt_tokens : undefined;
  const completion = typeof record.completion_tokens === 'number' ? record.completion_tokens : undefined;
  if (prompt === undefined && completion === undefined) return undefined;
  const total = typeof record.total_tokens === 'number' ? record.total_tokens : (prompt ?? 0) + (completion ?? 0);
  return { promptTokens: prompt ?? 0, completionTokens: completion ?? 0, totalTokens: total };
}

function streamError(payload: unknown): EngineError {
  const message = serverMessage(payload) ?? (typeof payload === 'string' ? payload : JSON.stringify(payload));
  return new EngineError('stream_error', `The model server reported an error mid-stream: ${preview(message)}`, { cause: payload });
}

function notACompletion(body: unknown): EngineError {
  const message = serverMessage(body);
  if (message !== undefined) {
    return new EngineError('stream_error', `The model server answered with an error instead of a completion: ${preview(message)}`, { cause: body });
  }
  return new EngineError('malformed_stream', `The model server answered with JSON that is not a chat completion: ${preview(JSON.stringify(body), 200)}`);
}

function cutError(cause?: unknown): EngineError {
  return new EngineError('stream_cut', 'The model stream ended before the answer was complete (no finish_reason, no [DONE])', { cause });
}
