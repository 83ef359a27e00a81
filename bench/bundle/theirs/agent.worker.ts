// The AI SDK app's worker: the loop (`streamText`), the OpenAI-compatible provider, a tool whose
// arguments zod validates and whose `execute` runs on the page.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { isStepCount, streamText, tool } from 'ai';
import * as Comlink from 'comlink';
import { z } from 'zod';

export interface AgentApi {
  /** Answer `prompt`, streaming its text to `onText`; resolves with the number of model turns. */
  ask(prompt: string, baseURL: string, page: { readTitle(): string }, onText: (text: string) => void): Promise<number>;
}

export const api: AgentApi = {
  async ask(prompt, baseURL, page, onText) {
    const model = createOpenAICompatible({ name: 'local', baseURL })('qwen2.5:7b');
    const result = streamText({
      model,
      prompt,
      stopWhen: isStepCount(10),
      tools: { read_title: tool({ description: 'The title of this page', inputSchema: z.object({}), execute: async () => page.readTitle() }) },
    });
    for await (const text of result.textStream) void onText(text);
    return (await result.steps).length;
  },
};

Comlink.expose(api);
