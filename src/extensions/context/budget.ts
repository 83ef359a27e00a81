import { InvalidOptionError } from '../../errors/invalid-option-error.js';
import type { ContextBudget, Message } from '../../core/types.js';
import { textOf } from '../../parts/content-text.js';
import { mediaTokens } from '../../parts/tokens.js';

export type { ContextBudget } from '../../core/types.js';

/** What trimming did to one request, as the `context_trimmed` event says it. */
export interface ContextTrim {
  droppedMessages: number;
  tokensBefore: number;
  tokensAfter: number;
}

/** Framing a chat template adds around each message (role markers, separators), unless the budget says: a common figure. */
const TOKENS_PER_MESSAGE = 4;

/** Refuse a budget that is not one: `maxTokens` a whole number >= 1, `reserveTokens` a whole number below it. */
export function checkContextBudget(budget: unknown): asserts budget is ContextBudget | undefined {
  if (budget === undefined) return;
  const { maxTokens, reserveTokens } = (budget ?? {}) as Partial<ContextBudget>;
  if (typeof budget !== 'object' || budget === null || !(Number.isInteger(maxTokens) && maxTokens! >= 1)) {
    throw new InvalidOptionError('context', '`maxTokens` must be a whole number >= 1');
  }
  if (reserveTokens !== undefined && !(Number.isInteger(reserveTokens) && reserveTokens >= 0 && reserveTokens < maxTokens!)) {
    throw new InvalidOptionError('context', '`reserveTokens` must be a whole number >= 0 and below `maxTokens`');
  }
  const { tokensPerMessage } = budget as ContextBudget;
  if (tokensPerMessage !== undefined && !(Number.isInteger(tokensPerMessage) && tokensPerMessage >= 0)) {
    throw new InvalidOptionError('context', '`tokensPerMessage` must be a whole number >= 0');
  }
}

/** The template's framing of each message under `budget`. */
export function tokensPerMessage(budget: ContextBudget): number {
  return budget.tokensPerMessage ?? TOKENS_PER_MESSAGE;
}

/** The tokens a prompt may take under `budget`. */
export function promptLimit(budget: ContextBudget): number {
  return budget.maxTokens - (budget.reserveTokens ?? Math.min(1024, Math.floor(budget.maxTokens / 4)));
}

/**
 * Counts tokens: with the engine's tokenizer where it has one, else characters / 4. The engine's
 * counts are kept, a message's with the message (a long conversation is counted once per run, not
 * per turn) and a text's by its content (a reloaded conversation costs no second trip to the tokenizer).
 */
export class TokenCounter {
  readonly #byMessage = new WeakMap<Message, number>();
  readonly #byText = new Map<string, number>();
  readonly #count: ((text: string, signal?: AbortSignal) => Promise<number>) | undefined;

  constructor(count?: (text: string, signal?: AbortSignal) => Promise<number>) {
    this.#count = count;
  }

  /** Tokens of `text` (synchronous when estimated: no await per message on long conversations). */
  text(text: string, signal?: AbortSignal): number | Promise<number> {
    if (!this.#count) return Math.ceil(text.length / 4);
    const known = this.#byText.get(text);
    if (known !== undefined) return known;
    return this.#count(text, signal).then((tokens) => {
      // Bounded: the oldest entry goes first once it is full.
      if (this.#byText.size >= 10_000) this.#byText.delete(this.#byText.keys().next().value!);
      this.#byText.set(text, tokens);
      return tokens;
    });
  }

  /** Tokens of one message's text and calls, without the template's framing (synchronous when known or estimated). */
  message(message: Message, signal?: AbortSignal): number | Promise<number> {
    // An estimate costs less than a cache (a WeakMap entry per message of a long conversation costs more than its arithmetic).
    if (!this.#count) return estimateMessage(message);
    const known = this.#byMessage.get(message);
    if (known !== undefined) return known;
    const calls = message.role === 'assistant' && message.toolCalls?.length ? JSON.stringify(message.toolCalls) : '';
    const content = this.text(textOf(message.content), signal);
    const extra = calls ? this.text(calls, signal) : 0;
    const keep = (a: number, b: number) => {
      // Images and files by the stated estimate (src/parts/tokens.ts): no tokenizer counts them.
      const tokens = a + b + mediaTokens(message);
      this.#byMessage.set(message, tokens);
      return tokens;
    };
    if (typeof content === 'number' && typeof extra === 'number') return keep(content, extra);
    return Promise.all([content, extra]).then(([a, b]) => keep(a, b));
  }
}

/** Characters / 4 of a message's text and calls. */
function estimateMessage(message: Message): number {
  let chars = typeof message.content === 'string' ? message.content.length : textOf(message.content).length;
  if (message.role === 'assistant' && message.toolCalls)
    for (const call of message.toolCalls) chars += call.id.length + call.name.length + jsonLength(call.arguments, 0) + 40;
  return Math.ceil(chars / 4) + mediaTokens(message);
}

/** About the length of `value` as JSON, without building the text (on a long conversation, stringifying every call costs more than the rest of the count). */
function jsonLength(value: unknown, depth: number): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value !== 'object' || value === null) return String(value).length;
  // Deeper than any call the tools accept: a guess is enough.
  if (depth > 64) return 0;
  let length = 2;
  if (Array.isArray(value)) for (const item of value) length += jsonLength(item, depth + 1) + 1;
  else for (const key in value) if (Object.hasOwn(value, key)) length += key.length + 4 + jsonLength((value as Record<string, unknown>)[key], depth + 1);
  return length;
}
