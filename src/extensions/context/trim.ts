// Loaded with the context step only: a run without a context budget never fetches it.
import { ContextOverflowError } from '../../errors/context-overflow-error.js';
import type { Message } from '../../core/types.js';
import type { ContextTrim, TokenCounter } from './budget.js';

/** What one request is made of, for trimming. */
export interface TrimInput {
  messages: readonly Message[];
  /** Index of the current run's user message: never dropped. */
  userAt: number;
  /** Tokens the request adds beyond the messages (format and answer instructions, native tool definitions). */
  extraTokens: number;
  limit: number;
  /** The template's framing of each message. */
  tokensPerMessage: number;
  counter: TokenCounter;
  /** Earlier messages not read at all: counted as dropped (their tokens are not counted). */
  unread?: number;
  signal?: AbortSignal;
}

/**
 * The messages of one request within `limit` tokens: the oldest droppable steps go first. Never
 * dropped: the leading system message, the run's user message, and the latest step (what the
 * model answers now). A step is one message, or an assistant message with calls together with
 * the tool messages after it (never split). Throws ContextOverflowError when what is kept is over.
 */
export async function trimToBudget(input: TrimInput): Promise<{ messages: readonly Message[]; trim?: ContextTrim }> {
  const { messages, userAt, limit, counter, signal } = input;
  const steps = stepsOf(messages);
  const counts: number[] = [];
  let total = input.extraTokens;
  for (const step of steps) {
    let tokens = 0;
    for (let at = step.start; at < step.end; at++) {
      const counted = counter.message(messages[at]!, signal);
      tokens += (typeof counted === 'number' ? counted : await counted) + input.tokensPerMessage;
    }
    counts.push(tokens);
    total += tokens;
  }
  const unread = input.unread ?? 0;
  if (total <= limit) return unread > 0 ? { messages, trim: { droppedMessages: unread, tokensBefore: total, tokensAfter: total } } : { messages };
  const pinned = steps.map((step, i) => isPinned(step, i, steps.length, messages, userAt));
  const dropped = new Set<number>();
  let after = total;
  for (let i = 0; i < steps.length && after > limit; i++) {
    if (pinned[i]) continue;
    dropped.add(i);
    after -= counts[i]!;
  }
  if (after > limit) throw new ContextOverflowError(after, limit);
  const out: Message[] = [];
  let droppedMessages = unread;
  steps.forEach((step, i) => {
    if (dropped.has(i)) droppedMessages += step.end - step.start;
    else out.push(...messages.slice(step.start, step.end));
  });
  return { messages: out, trim: { droppedMessages, tokensBefore: total, tokensAfter: after } };
}

interface Step {
  start: number;
  end: number;
}

/** The conversation cut into steps: an assistant message with calls takes the tool messages that follow it. */
function stepsOf(messages: readonly Message[]): Step[] {
  const steps: Step[] = [];
  for (let at = 0; at < messages.length; ) {
    const message = messages[at]!;
    let end = at + 1;
    if (message.role === 'assistant' && message.toolCalls?.length) while (messages[end]?.role === 'tool') end++;
    steps.push({ start: at, end });
    at = end;
  }
  return steps;
}

function isPinned(step: Step, index: number, count: number, messages: readonly Message[], userAt: number): boolean {
  if (step.start === 0 && messages[0]!.role === 'system') return true;
  if (step.start <= userAt && userAt < step.end) return true;
  // The latest step of this run: the results (or note) the model is answering now.
  return index === count - 1 && step.start > userAt;
}
