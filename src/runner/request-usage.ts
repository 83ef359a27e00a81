import type { Message, ToolCall, ToolDefinition, Usage } from '../core/types.js';
import { textOf } from '../parts/content-text.js';
import { mediaTokens } from '../parts/tokens.js';
import type { EngineRequest } from '../engines/types.js';

/** What a server's counts must be: whole numbers from 0 to Number.MAX_SAFE_INTEGER. */
const countable = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The optional counts a usage may carry beside its three totals. */
export const USAGE_DETAILS = ['cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;

/** Characters per token of the estimate (the context budget counts the same way without a tokenizer). */
const CHARS_PER_TOKEN = 4;

/**
 * The usage of one model request: the server's counts where they can be right (whole, not
 * negative; a total below prompt plus completion is raised to it), else an estimate from the
 * request and the reply, marked `estimated`. `problem` says why the server's counts were not used.
 */
export function requestUsage(
  reported: Usage | undefined,
  request: EngineRequest,
  reply: { rawText: string; calls: readonly ToolCall[] },
): { usage: Usage; problem?: string } {
  if (reported && countable(reported.promptTokens) && countable(reported.completionTokens) && countable(reported.totalTokens)) {
    const { promptTokens, completionTokens } = reported;
    const totalTokens = Math.max(reported.totalTokens, Math.min(promptTokens + completionTokens, Number.MAX_SAFE_INTEGER));
    const usage: Usage = { promptTokens, completionTokens, totalTokens };
    // The finer counts, where the server gave whole ones (cache reads and writes, reasoning).
    for (const detail of USAGE_DETAILS) if (countable(reported[detail])) usage[detail] = reported[detail];
    return { usage };
  }
  const promptTokens = tokens(requestChars(request));
  const completionTokens = tokens(reply.rawText.length + callsChars(reply.calls));
  const usage: Usage = { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, estimated: true };
  if (!reported) return { usage };
  const shown = JSON.stringify([reported.promptTokens, reported.completionTokens, reported.totalTokens]) ?? 'nothing';
  return {
    usage,
    problem: `The model server reported token counts that cannot be right (prompt, completion, total: ${shown.slice(0, 120)}); estimated instead`,
  };
}

const tokens = (chars: number) => Math.ceil(chars / CHARS_PER_TOKEN);

function requestChars(request: EngineRequest): number {
  let chars = toolsChars(request.tools);
  for (const message of request.messages) chars += messageChars(message);
  return chars;
}

function messageChars(message: Message): number {
  // Parts beyond text by their stated token estimate, as characters (see src/parts/tokens.ts).
  const content = (typeof message.content === 'string' ? message.content.length : textOf(message.content).length) + mediaTokens(message) * CHARS_PER_TOKEN;
  return message.role === 'assistant' && message.toolCalls ? content + callsChars(message.toolCalls) : content;
}

function callsChars(calls: readonly ToolCall[]): number {
  let chars = 0;
  for (const call of calls) chars += call.name.length + jsonLength(call.arguments);
  return chars;
}

/** The tool definitions' JSON size, once per set of definitions (the registry hands out one array until its tools change). */
const definitionSizes = new WeakMap<readonly ToolDefinition[], number>();

function toolsChars(tools: readonly ToolDefinition[]): number {
  let size = definitionSizes.get(tools);
  if (size === undefined) {
    size = jsonLength(tools);
    definitionSizes.set(tools, size);
  }
  return size;
}

function jsonLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}
