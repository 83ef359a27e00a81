import type { Message } from '../../core/types.js';
import type { ToolCall, ToolDefinition } from '../../core/types.js';
import type { EngineRequest } from '../types.js';
import type { ToolChoice } from '../../core/types.js';
import { checkedBaseURL, type OpenAICompatibleConfig } from './openai-compatible.js';
import { textOf } from '../../parts/content-text.js';

/** Marks a user message the runtime wrote, so the model does not take it for the person's words. */
export const RUNTIME_PREFIX = '[runtime] ';

/**
 * `{baseURL}/chat/completions`, with or without a trailing slash, keeping a query string (Azure's
 * `api-version`). A relative baseURL resolves against the page's or worker's location.
 */
export function chatCompletionsURL(baseURL: string): string {
  const url = checkedBaseURL(baseURL.trim());
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  return url.toString();
}

/**
 * Request headers: JSON in, SSE out, bearer auth when a key is given, then the config's own
 * headers, each replacing a default of the same name whatever its case (`Authorization` over
 * `authorization`), rather than being sent alongside it.
 */
export function requestHeaders(config: OpenAICompatibleConfig): Headers {
  const headers = new Headers({ 'content-type': 'application/json', accept: 'text/event-stream' });
  if (config.apiKey) headers.set('authorization', `Bearer ${config.apiKey}`);
  for (const [name, value] of Object.entries(config.headers ?? {})) headers.set(name, value);
  return headers;
}

/** The `/chat/completions` body for one request; `extraBody` goes last so it can override anything. */
export function requestBody(config: OpenAICompatibleConfig, request: EngineRequest): Record<string, unknown> {
  return {
    model: config.model,
    messages: request.messages.map((message) => toWireMessage(message, config.nativeTools)),
    ...bodyAfterMessages(config, request),
  };
}

/** Every field of the body after `model` and `messages`, `extraBody` last (it may override `model` or `messages` too). */
export function bodyAfterMessages(config: OpenAICompatibleConfig, request: EngineRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    stream: true,
    stream_options: { include_usage: true },
  };
  if (config.temperature !== undefined) body.temperature = config.temperature;
  if (config.maxTokens !== undefined) body.max_tokens = config.maxTokens;
  // Servers reject tool_choice without tools, so both travel together or not at all.
  if (config.nativeTools && request.tools.length > 0) {
    body.tools = request.tools.map(toWireTool);
    if (request.toolChoice !== undefined) body.tool_choice = toWireToolChoice(request.toolChoice);
  }
  const format = responseFormat(config, request);
  if (format) body.response_format = format;
  return { ...body, ...config.extraBody };
}

/**
 * `response_format` json_schema for a request that carries the run's answer format (an answering
 * turn: the runner leaves it off a turn that must call a tool). With native tools the server lets
 * the model call tools or answer in the format; with calls as text the format would forbid the
 * tags, so it is sent only when the model cannot call (no tools, or `toolChoice: 'none'`).
 */
function responseFormat(config: OpenAICompatibleConfig, request: EngineRequest): Record<string, unknown> | undefined {
  const so = config.structuredOutputs;
  if (!so || !request.output) return undefined;
  if (!config.nativeTools && request.tools.length > 0 && request.toolChoice !== 'none') return undefined;
  const strict = typeof so === 'object' ? so.strict : undefined;
  return { type: 'json_schema', json_schema: { name: request.output.name, schema: request.output.schema, ...(strict !== undefined ? { strict } : {}) } };
}

/**
 * One SDK message in the OpenAI chat shape. Without native tools the server may know
 * no `tool` role: calls stay in the assistant's text (tags included) and results travel
 * as runtime-marked user messages.
 */
export function toWireMessage(message: Message, nativeTools = true): Record<string, unknown> {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user': {
      // Parts (images, files) are written by content-parts.ts; here a message of text (or of text parts) is text.
      const text = textOf(message.content);
      return {
        role: 'user',
        content: message.origin === 'runtime' ? RUNTIME_PREFIX + text : text,
      };
    }
    case 'assistant': {
      const calls = nativeTools ? (message.toolCalls ?? []) : [];
      // Provider fields (e.g. DeepSeek's reasoning_content) are echoed verbatim; ours win a clash.
      return {
        ...message.provider,
        role: 'assistant',
        content: message.content === '' && calls.length > 0 ? null : message.content,
        ...(calls.length > 0 ? { tool_calls: calls.map(toWireToolCall) } : {}),
      };
    }
    case 'tool':
      if (!nativeTools) {
        return { role: 'user', content: `${RUNTIME_PREFIX}Result of tool call ${message.toolCallId} (${message.name}): ${message.content}` };
      }
      // `name` is optional for OpenAI and expected by some servers (Groq's and Mistral's examples send it).
      return { role: 'tool', tool_call_id: message.toolCallId, name: message.name, content: message.content };
  }
}

function toWireToolCall(call: ToolCall): Record<string, unknown> {
  const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
  // Provider fields (e.g. Gemini's extra_content thought signature) must come back with the call.
  return { ...call.provider, id: call.id, type: 'function', function: { name: call.name, arguments: args } };
}

function toWireTool(tool: ToolDefinition): Record<string, unknown> {
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } };
}

function toWireToolChoice(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/** Whether a request's messages hold parts beyond text (the common request holds none, and keeps its cached JSON). */
export function holdsParts(messages: readonly Message[]): boolean {
  return messages.some((m) => (m.role === 'user' && typeof m.content !== 'string') || (m.role === 'tool' && m.parts !== undefined && m.parts.length > 0));
}
