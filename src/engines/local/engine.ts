import type { ChatCompletionChunk } from '@wllama/wllama';
import { DEFAULT_CALL_TAGS } from '../../parser/call-tags.js';
import { childController } from '../../util/abort-source.js';
import { abortedError, throwIfAborted } from '../abort.js';
import { toolCallGrammar } from './grammar.js';
import { answerGrammar, looseKeywords } from './answer-grammar.js';
import { localContextBudget, localTokenCount } from './tokens.js';
import type { ContextBudget } from '../../core/types.js';
import { ModelLoader } from './loader.js';
import { localModel, type LocalModelConfig, type LocalModelDeps, type LocalModelInfo } from './local-model.js';
import { generationError } from './runtime.js';
import { templateMessages } from './template.js';
import { AsyncQueue } from '../../util/async-queue.js';
import { Limiter } from '../../util/limiter.js';
import type { Engine, EngineEvent, EngineRequest } from '../types.js';
import type { FinishReason, Usage } from '../../core/types.js';

/** The Engine of a `localModel` config, with control over the model's lifetime. */
export interface LocalEngine extends Engine {
  readonly nativeTools: false;
  /** The loaded model's facts (undefined until loaded). */
  readonly model: LocalModelInfo | undefined;
  /** Load the model now rather than on the first request. */
  load(options?: { signal?: AbortSignal }): Promise<LocalModelInfo>;
  /** Free the model and its WebAssembly memory; the next request loads it again. */
  unload(): Promise<void>;
  /** Tokens of `text` by the model's tokenizer (llama.cpp's count of it as a prompt); loads the model if needed. */
  countTokens(text: string, signal?: AbortSignal): Promise<number>;
  /** The model's context size as a budget (reserving `maxTokens`, or a quarter, for the reply); loads the model if needed. */
  contextBudget(signal?: AbortSignal): Promise<ContextBudget>;
}

/**
 * An Engine that runs a GGUF model in this realm with llama.cpp (wllama). Calls travel as tagged
 * text (`nativeTools: false`): the runner teaches the format in the system prompt and parses the
 * reply, while every reply is generated under a grammar that lets a call be only well-formed,
 * to a registered tool, with arguments that fit its schema.
 */
export function createLocalEngine(given: LocalModelConfig, deps: LocalModelDeps = {}): LocalEngine {
  // Checked here: a config may be hand-written, or have crossed from another realm.
  const config = localModel(given);
  const loader = new ModelLoader(config, deps);
  // One generation at a time, in arrival order: a small model in the browser has one context,
  // and a leaf's turn must not interleave with its parent's.
  const lock = new Limiter(1);
  return {
    nativeTools: false,
    get model() {
      return loader.info;
    },
    async load(options = {}) {
      await loader.acquire(options.signal);
      return loader.info!;
    },
    unload: () => loader.unload(),
    stream: (request) => generate(config, loader, lock, request),
    countTokens: async (text, signal) => localTokenCount(await loader.acquire(signal), lock, text, signal),
    contextBudget: async (signal) => localContextBudget(await loader.acquire(signal), lock, config, signal),
  };
}

async function* generate(config: LocalModelConfig, loader: ModelLoader, lock: Limiter, request: EngineRequest): AsyncGenerator<EngineEvent> {
  const { signal } = request;
  throwIfAborted(signal);
  // Built first: an unknown forced tool or unusable tags fail before any loading. The runner relaxes
  // a forced choice after tool results. The tags are the parser's, so every call written is one it reads.
  const choice = request.toolChoice ?? 'auto';
  const tags = request.callTags ?? DEFAULT_CALL_TAGS;
  // An answering turn of a run with an output schema: the answer is that schema's JSON.
  const grammar = request.output ? answerGrammar(request.tools, choice, tags, request.output) : toolCallGrammar(request.tools, choice, tags);
  const loose = request.output ? looseKeywords(request.output.schema) : [];
  if (loose.length > 0) {
    yield {
      type: 'warning',
      code: 'output_grammar_loose',
      message: `The local model's grammar cannot express ${loose.join(', ')} of the output schema: the answer is validated after generation, and retried if it does not match`,
    };
  }
  const model = await loader.acquire(signal);
  const release = await lock.acquire(signal).catch((error: unknown) => {
    throw signal?.aborted ? abortedError(signal) : error;
  });
  const { controller, unlink } = childController(signal);
  const chunks = new AsyncQueue<ChatCompletionChunk>();
  const running = model.wllama
    .createChatCompletion({
      messages: templateMessages(request.messages),
      stream: true,
      // llama-server's option: the last chunk carries the token counts.
      ...({ stream_options: { include_usage: true } } as object),
      onData: (chunk: ChatCompletionChunk) => chunks.push(chunk),
      abortSignal: controller.signal,
      ...(grammar !== undefined ? { grammar } : {}),
      ...(config.maxTokens !== undefined ? { max_tokens: config.maxTokens } : {}),
      ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
      ...(config.seed !== undefined ? { seed: config.seed } : {}),
    })
    .then(
      () => chunks.close(),
      (error: unknown) => chunks.fail(error),
    );

  let finish: FinishReason = 'stop';
  let usage: Usage | undefined;
  try {
    for await (const chunk of chunks) {
      const choice = chunk.choices[0];
      const text = choice?.delta?.content;
      if (text) yield { type: 'text', text };
      if (choice?.finish_reason) finish = choice.finish_reason;
      if (chunk.usage)
        usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens, totalTokens: chunk.usage.total_tokens };
    }
  } catch (error) {
    if (signal?.aborted || (error instanceof Error && error.name === 'AbortError')) throw abortedError(signal);
    throw generationError(error, model.log);
  } finally {
    // Also when the reader stops early: stop llama.cpp, and wait until it let go of the context.
    controller.abort();
    await running;
    unlink();
    release();
  }
  if (usage) yield { type: 'usage', usage };
  yield { type: 'finish', reason: finish };
}
