import type { ToolDefinition } from '../../core/types.js';
import type { Engine } from '../../engines/types.js';
import { promptLimit, tokensPerMessage, type ContextBudget, type TokenCounter } from './budget.js';
import { trimToBudget } from './trim.js';
import type { RunEvent } from '../../core/run.js';
import type { Message } from '../../core/types.js';

/** One request's conversation, as the context step reads it. */
export interface FitInput {
  /** The agent's budget, if it set one. */
  budget: ContextBudget | undefined;
  engine: Engine;
  counter: TokenCounter;
  messages: readonly Message[];
  /** Index of the run's user message. */
  userAt: number;
  /** Stored messages before `messages` that the run did not read (left out of every request). */
  unread?: number;
  /** What the system prompt gains for this request (format and answer instructions). */
  addition: string;
  tools: readonly ToolDefinition[];
  emit: (event: RunEvent) => void;
  signal?: AbortSignal;
}

// Native tool definitions travel with every request: counted once per set of tools (the registry's list is the same object until it changes).
const toolTexts = new WeakMap<readonly ToolDefinition[], string>();

/**
 * The messages of one request within the agent's context budget (its own, or the engine's, as a
 * local model knows its context size); unchanged without one. Emits `context_trimmed` when it
 * dropped messages; throws ContextOverflowError, before the engine is called, when nothing fits.
 */
export async function fitContext(input: FitInput): Promise<readonly Message[]> {
  const { engine, counter, signal } = input;
  const budget = input.budget ?? (await engine.contextBudget?.(signal));
  if (!budget) return input.messages;
  const framing = tokensPerMessage(budget);
  // The addition joins the system message, or is one of its own: counted with a message's framing either way.
  let extraTokens = input.addition ? (await counter.text(input.addition, signal)) + framing : 0;
  if (engine.nativeTools && input.tools.length > 0) {
    let text = toolTexts.get(input.tools);
    if (text === undefined) {
      text = JSON.stringify(input.tools);
      toolTexts.set(input.tools, text);
    }
    extraTokens += await counter.text(text, signal);
  }
  const fitted = await trimToBudget({
    messages: input.messages,
    userAt: input.userAt,
    extraTokens,
    limit: promptLimit(budget),
    tokensPerMessage: framing,
    counter,
    ...(input.unread ? { unread: input.unread } : {}),
    ...(signal ? { signal } : {}),
  });
  if (fitted.trim) input.emit({ type: 'context_trimmed', ...fitted.trim });
  return fitted.messages;
}
