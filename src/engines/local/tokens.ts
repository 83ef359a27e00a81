import type { ContextBudget } from '../../core/types.js';
import type { Limiter } from '../../util/limiter.js';
import { abortedError } from '../abort.js';
import type { LocalModelConfig } from './local-model.js';
import { generationError, type LoadedModel } from './runtime.js';

// wllama has no tokenize call: llama.cpp's count of a prompt (its usage, or the size its
// "exceeds the available context" refusal names) is the tokenizer's own count. A prompt it
// already holds is served from its cache, so a count costs little after the first.
const OVER_CONTEXT = /request \((\d+) tokens\) exceeds/;

/** Tokens of `text` by the model's tokenizer, without the BOS token a prompt gets. */
export async function localTokenCount(model: LoadedModel, lock: Limiter, text: string, signal?: AbortSignal): Promise<number> {
  const bos = model.wllama.mustAddBosToken() ? 1 : 0;
  return (await promptTokens(model, lock, signal, { prompt: text })) - bos;
}

/**
 * The model's context as a budget: its size, `maxTokens` (or a quarter of the context, at most
 * 512) kept for the reply, and the framing its chat template puts around a message, measured
 * once on an empty user message (an overestimate: the count includes the assistant's opening).
 */
export async function localContextBudget(model: LoadedModel, lock: Limiter, config: LocalModelConfig, signal?: AbortSignal): Promise<ContextBudget> {
  const size = model.contextSize;
  const reserve = Math.min(config.maxTokens ?? Math.min(512, Math.floor(size / 4)), size - 1);
  framing.set(
    model,
    (framing.get(model) ?? promptTokens(model, lock, signal, { messages: [{ role: 'user', content: '' }] })).catch((error: unknown) => {
      framing.delete(model);
      throw error;
    }),
  );
  return { maxTokens: size, reserveTokens: reserve, tokensPerMessage: await framing.get(model)! };
}

const framing = new WeakMap<LoadedModel, Promise<number>>();

/** llama.cpp's prompt tokens for a one-token completion of `input` (raw text, or chat messages through the template). */
async function promptTokens(
  model: LoadedModel,
  lock: Limiter,
  signal: AbortSignal | undefined,
  input: { prompt: string } | { messages: Array<{ role: 'user'; content: string }> },
): Promise<number> {
  const release = await lock.acquire(signal).catch((error: unknown) => {
    throw signal?.aborted ? abortedError(signal) : error;
  });
  try {
    const options = { max_tokens: 1, temperature: 0, ...(signal ? { abortSignal: signal } : {}) };
    const response =
      'prompt' in input
        ? await model.wllama.createCompletion({ ...options, prompt: input.prompt })
        : await model.wllama.createChatCompletion({ ...options, messages: input.messages });
    return response.usage.prompt_tokens;
  } catch (error) {
    const over = OVER_CONTEXT.exec(error instanceof Error ? error.message : String(error));
    if (over) return Number(over[1]);
    if (signal?.aborted) throw abortedError(signal);
    throw generationError(error, model.log);
  } finally {
    release();
  }
}
