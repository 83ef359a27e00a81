import { EngineError } from '../../errors/engine-error.js';
import { sleep, throwIfAborted } from '../../engines/abort.js';
import { deferredStream } from '../../engines/deferred-stream.js';
import type { Engine, EngineEvent, EngineRequest } from '../../engines/types.js';
import { onAbort } from '../../util/abort-source.js';
import { callOptions } from './call-options.js';
import { engineErrorOf, retryable, retryAfterMs, said } from './call-errors.js';
import type { AiSdkCallOptions, AiSdkLanguageModel } from './model-shape.js';
import { ReplyReader } from './stream-parts.js';
import type { PartKinds } from '../../core/parts.js';

/** What `languageModelEngine` accepts beside the model: call settings sent with every request. */
export interface LanguageModelEngineOptions {
  /** True (default): tools go as function tools and calls come back as tool calls. False: the runner teaches tags and parses calls from text. */
  nativeTools?: boolean;
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  seed?: number;
  stopSequences?: string[];
  /** Sent with every request, over the provider's own. */
  headers?: Record<string, string>;
  /** Provider options by provider (`{ anthropic: { thinking: { type: 'enabled', budgetTokens: 1024 } } }`). */
  providerOptions?: Record<string, Record<string, unknown>>;
  /** Tries again after a 408, 409, 429 or 5xx the provider marks retryable, only before any output (its Retry-After honoured). Default 2. */
  maxRetries?: number;
  /**
   * The parts beyond text the model takes. Default `{ image: true, file: true }`: images and files
   * go as the specification's `file` parts (a tool's in its result's content), and a provider that
   * cannot send one fails with its own error. `{}` for a text-only model: a person's image then
   * fails `unsupported_content` before any request.
   */
  accepts?: PartKinds;
}

const VERSIONS = ['v2', 'v3', 'v4'];
/** The longest wait between two tries, whatever a server's Retry-After says. */
const MAX_RETRY_DELAY_MS = 30_000;

/**
 * Any AI SDK language model object (specification v2, v3 or v4: `@ai-sdk/anthropic`,
 * `@ai-sdk/google`, `@ai-sdk/openai`, in-browser providers) as an Engine, driven by its `doStream`:
 * tools as function tools, text and tool calls back, usage (cache and reasoning tokens kept),
 * finish reasons, the run's abort into `doStream`, an answer schema as `responseFormat`, a
 * provider's `APICallError` as `http_error` / `network_error`. Nothing of `ai` is imported.
 * In a runner worker, build it in an engine factory (`serveRunner({ engines })`).
 *
 * @example
 * ```ts
 * import { Agent, ChatRunner } from 'ambi-web';
 * import { languageModelEngine } from 'ambi-web/ai-sdk';
 * import { createAnthropic } from '@ai-sdk/anthropic';
 *
 * const key = document.querySelector<HTMLInputElement>('#key')?.value ?? '';
 * const anthropic = createAnthropic({ apiKey: key, headers: { 'anthropic-dangerous-direct-browser-access': 'true' } });
 * const agent = await Agent.make(languageModelEngine(anthropic('claude-sonnet-4-5')), { preamble: 'Be brief.' });
 * console.log((await new ChatRunner().run(agent, 'Hello!').result).text);
 * ```
 */
export function languageModelEngine(model: AiSdkLanguageModel, options: LanguageModelEngineOptions = {}): Engine {
  checkModel(model);
  const nativeTools = options.nativeTools ?? true;
  const maxRetries = options.maxRetries ?? 2;
  if (!(Number.isInteger(maxRetries) && maxRetries >= 0))
    throw new EngineError('invalid_engine_config', 'languageModelEngine: `maxRetries` must be a whole number >= 0');
  const provider = String(model.provider);
  const settings = callSettings(options);
  return {
    nativeTools,
    accepts: options.accepts ?? { image: true, file: true },
    info: { provider: provider.split('.')[0] || provider, model: String(model.modelId) },
    stream: (request) =>
      deferredStream(
        async () => streamReply(model, provider, { ...settings, ...(await callOptions(request, nativeTools, model)) }, request, maxRetries),
        (error) => engineErrorOf(error, provider, request.signal),
      ),
  };
}

async function* streamReply(
  model: AiSdkLanguageModel,
  provider: string,
  options: AiSdkCallOptions,
  request: EngineRequest,
  maxRetries: number,
): AsyncGenerator<EngineEvent> {
  const stream = await started(model, options, request.signal, maxRetries);
  const reader = stream.getReader();
  // The provider aborts its fetch through `abortSignal`; the reader is cancelled too, for a model that does not.
  const unhook = request.signal ? onAbort(request.signal, () => void reader.cancel(request.signal?.reason).catch(() => {})) : undefined;
  const reply = new ReplyReader(provider);
  try {
    for (;;) {
      const { done, value } = await reader.read().catch((error: unknown) => Promise.reject(brokenOff(error, provider, request.signal)));
      throwIfAborted(request.signal);
      if (done) break;
      for (const event of reply.read(value)) yield event;
    }
    yield* reply.end();
  } finally {
    unhook?.();
    // Ending early (the run stopped reading) cancels what the provider still sends.
    void reader.cancel().catch(() => {});
  }
}

/** A stream that failed after it began: the connection broke off mid-reply (`stream_cut`), unless the failure has a code of its own. */
function brokenOff(error: unknown, provider: string, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted || error instanceof EngineError) return error;
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  if (error instanceof TypeError || name === 'AI_APICallError')
    return new EngineError('stream_cut', `${provider}'s stream broke off mid-reply: ${said(error)}`);
  return error;
}

/** `doStream`, tried again while its failure is retryable and tries are left. */
async function started(
  model: AiSdkLanguageModel,
  options: AiSdkCallOptions,
  signal: AbortSignal | undefined,
  maxRetries: number,
): Promise<ReadableStream<unknown>> {
  for (let attempt = 0; ; attempt++) {
    throwIfAborted(signal);
    try {
      const result = await model.doStream(options as never);
      if (typeof result?.stream?.getReader !== 'function') throw new EngineError('malformed_stream', `${model.provider}'s doStream gave no stream`);
      return result.stream;
    } catch (error) {
      if (attempt >= maxRetries || !retryable(error) || signal?.aborted) throw error;
      await sleep(Math.min(retryAfterMs(error) ?? 500 * 2 ** attempt, MAX_RETRY_DELAY_MS), signal);
    }
  }
}

function checkModel(model: unknown): asserts model is AiSdkLanguageModel {
  if (typeof model === 'string') {
    throw new EngineError(
      'invalid_engine_config',
      `languageModelEngine takes a model object, not the id "${model.slice(0, 80)}": e.g. createAnthropic({ apiKey })('${model.slice(0, 40)}')`,
    );
  }
  const version = typeof model === 'object' && model !== null ? (model as { specificationVersion?: unknown }).specificationVersion : undefined;
  if (typeof model !== 'object' || model === null || typeof (model as AiSdkLanguageModel).doStream !== 'function') {
    throw new EngineError('invalid_engine_config', 'languageModelEngine takes an AI SDK language model object (one with doStream)');
  }
  if (!VERSIONS.includes(String(version))) {
    throw new EngineError('invalid_engine_config', `languageModelEngine drives specification v2, v3 or v4; this model implements ${String(version)}`);
  }
}

function callSettings(options: LanguageModelEngineOptions): Partial<AiSdkCallOptions> {
  const { maxOutputTokens, temperature, topP, topK, seed, stopSequences, headers, providerOptions } = options;
  const settings: Partial<AiSdkCallOptions> = {};
  for (const [key, value] of Object.entries({ maxOutputTokens, temperature, topP, topK, seed, stopSequences, headers, providerOptions })) {
    if (value !== undefined) settings[key] = value;
  }
  return settings;
}
