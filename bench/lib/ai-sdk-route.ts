// The AI SDK app's server route, POST /api/chat, as the AI SDK's docs write one for a Node server
// (ai@7, "Create an API Route"): the Chat's UI messages parsed from the body, converted with
// `convertToModelMessages`, `streamText` with the OpenAI-compatible provider, and the UI message
// stream piped to the response as server-sent events. The page's tool is declared without
// `execute` (a client-side tool: the page's Chat runs it in `onToolCall` and sends its output in
// the next request). The provider talks to the scripted model on the same server
// (bench/lib/scripted-model.ts, base URL `…/tool-result/v1`): tool-result-1mb.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { convertToModelMessages, pipeUIMessageStreamToResponse, streamText, toUIMessageStream, tool, type UIMessage } from 'ai';
import { z } from 'zod';
import { LISTINGS_TOOL } from './listings.js';

/** Whether the request is for the route. */
export const isChatRoute = (method: string | undefined, path: string) => method === 'POST' && path === '/api/chat';

/** Answer one request of the route. */
export async function chatRoute(request: IncomingMessage, response: ServerResponse): Promise<void> {
  let body = '';
  for await (const piece of request) body += piece;
  const { messages } = JSON.parse(body) as { messages: UIMessage[] };
  const model = createOpenAICompatible({ name: 'local', baseURL: `http://${request.headers.host}/tool-result/v1` })('m');
  const result = streamText({
    model,
    messages: await convertToModelMessages(messages),
    tools: { [LISTINGS_TOOL.name]: tool({ description: LISTINGS_TOOL.description, inputSchema: z.object({}) }) },
  });
  await pipeUIMessageStreamToResponse({ response, stream: toUIMessageStream({ stream: result.stream }) });
}
