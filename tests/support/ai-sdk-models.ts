// AI SDK mock models for the language-model engine's tests: the AI SDK's own (`ai/test`), streaming
// the parts each test gives, one reply per `doStream` call; and the stream helpers they share.
import { MockLanguageModelV3, MockLanguageModelV4 } from 'ai/test';

/** A stream of `parts`; `hold` keeps it open after them until it is cancelled (which `cancelled` then says, with its reason). */
export function partStream(parts: readonly unknown[], hold = false): { stream: ReadableStream<never>; cancelled: Promise<unknown> } {
  let cancelled!: (reason: unknown) => void;
  const whenCancelled = new Promise<unknown>((resolve) => (cancelled = resolve));
  const stream = new ReadableStream<never>({
    start(controller) {
      for (const part of parts) controller.enqueue(part as never);
      if (!hold) controller.close();
    },
    cancel: (reason) => cancelled(reason),
  });
  return { stream, cancelled: whenCancelled };
}

/** The usage part of a v3/v4 finish: `input` and `output` tokens, cache and reasoning counts where given. */
export function usageV4(input: number, output: number, extra: { cacheRead?: number; cacheWrite?: number; reasoning?: number } = {}) {
  return {
    inputTokens: { total: input, noCache: input - (extra.cacheRead ?? 0), cacheRead: extra.cacheRead, cacheWrite: extra.cacheWrite },
    outputTokens: { total: output, text: output - (extra.reasoning ?? 0), reasoning: extra.reasoning },
  };
}

export const finishPart = (unified: string, usage = usageV4(10, 5)) => ({ type: 'finish', finishReason: { unified, raw: unified }, usage });
export const textParts = (id: string, ...deltas: string[]) => [
  { type: 'text-start', id },
  ...deltas.map((delta) => ({ type: 'text-delta', id, delta })),
  { type: 'text-end', id },
];
export const callPart = (toolCallId: string, toolName: string, input: string, more: Record<string, unknown> = {}) => ({
  type: 'tool-call',
  toolCallId,
  toolName,
  input,
  ...more,
});

/** A v4 mock model answering each `doStream` call with the next reply's parts (a reply may be a function of the call's options). */
export function mockV4(replies: Array<unknown[] | ((options: any) => unknown[])>): MockLanguageModelV4 {
  let next = 0;
  return new MockLanguageModelV4({
    provider: 'mock.chat',
    modelId: 'mock-4',
    doStream: async (options) => {
      const reply = replies[next++];
      if (!reply) throw new Error(`the mock ran out of replies after ${replies.length}`);
      return { stream: partStream(typeof reply === 'function' ? reply(options) : reply).stream };
    },
  });
}

/** The same, implementing specification v3. */
export function mockV3(replies: unknown[][]): MockLanguageModelV3 {
  let next = 0;
  return new MockLanguageModelV3({
    provider: 'mock.chat',
    modelId: 'mock-3',
    doStream: async () => ({ stream: partStream(replies[next++] ?? []).stream }),
  });
}
