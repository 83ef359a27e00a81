import type { Message, ToolCall } from '../../core/types.js';
import type { EngineRequest } from '../../engines/types.js';
import { RUNTIME_PREFIX } from '../../engines/openai/request.js';
import type { AiSdkAssistantPart, AiSdkCallOptions, AiSdkMessage, AiSdkProviderFields } from './model-shape.js';

/** Where the engine keeps a provider's fields on our messages (`ToolCall.provider`, `AssistantMessage.provider`), apart from other engines'. */
export const PROVIDER_KEY = 'aiSdk';

/** What the engine keeps of an assistant reply for the provider: its reasoning (signed, for some), and its text's own fields. */
export interface KeptReply {
  reasoning?: Array<{ text: string; providerOptions?: AiSdkProviderFields }>;
  text?: AiSdkProviderFields;
}

/** The call options of one request: the prompt, function tools, the tool choice, the answer's schema, the run's abort. */
export function callOptions(request: EngineRequest, nativeTools: boolean): AiSdkCallOptions {
  const options: AiSdkCallOptions = { prompt: promptOf(request.messages, nativeTools) };
  if (nativeTools && request.tools.length > 0) {
    options.tools = request.tools.map((tool) => ({
      type: 'function',
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters as Record<string, unknown>,
    }));
    const choice = request.toolChoice;
    if (choice !== undefined) options.toolChoice = typeof choice === 'object' ? { type: 'tool', toolName: choice.name } : { type: choice };
  }
  if (request.output) options.responseFormat = { type: 'json', schema: request.output.schema, name: request.output.name };
  if (request.signal) options.abortSignal = request.signal;
  return options;
}

/**
 * Our conversation in the specification's prompt shape; consecutive tool results go in one tool
 * message. Without native tools, calls stay in the assistant's text (tags included) and results
 * travel as runtime-marked user messages, as the OpenAI-compatible engine sends them.
 */
function promptOf(messages: readonly Message[], nativeTools: boolean): AiSdkMessage[] {
  const prompt: AiSdkMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user':
        prompt.push({ role: 'user', content: [{ type: 'text', text: message.origin === 'runtime' ? RUNTIME_PREFIX + message.content : message.content }] });
        break;
      case 'assistant':
        prompt.push({ role: 'assistant', content: assistantParts(message.content, nativeTools ? (message.toolCalls ?? []) : [], kept(message.provider)) });
        break;
      case 'tool': {
        if (!nativeTools) {
          const text = `${RUNTIME_PREFIX}Result of tool call ${message.toolCallId} (${message.name}): ${message.content}`;
          prompt.push({ role: 'user', content: [{ type: 'text', text }] });
          break;
        }
        const result = {
          type: 'tool-result' as const,
          toolCallId: message.toolCallId,
          toolName: message.name,
          output: { type: 'text' as const, value: message.content },
        };
        const last = prompt.at(-1);
        if (last?.role === 'tool') last.content.push(result);
        else prompt.push({ role: 'tool', content: [result] });
        break;
      }
    }
  }
  return prompt;
}

function assistantParts(text: string, calls: readonly ToolCall[], reply: KeptReply | undefined): AiSdkAssistantPart[] {
  const parts: AiSdkAssistantPart[] = [];
  for (const reasoning of reply?.reasoning ?? []) parts.push({ type: 'reasoning', ...reasoning });
  if (text !== '') parts.push({ type: 'text', text, ...(reply?.text ? { providerOptions: reply.text } : {}) });
  for (const call of calls) {
    const fields = fieldsOf(call.provider);
    parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.arguments, ...(fields ? { providerOptions: fields } : {}) });
  }
  // An empty reply still takes its place in the conversation.
  return parts.length > 0 ? parts : [{ type: 'text', text: '' }];
}

/** The provider fields this engine kept on a call (another engine's fields are not sent to this provider). */
function fieldsOf(provider: Record<string, unknown> | undefined): AiSdkProviderFields | undefined {
  const fields = provider?.[PROVIDER_KEY];
  return typeof fields === 'object' && fields !== null ? (fields as AiSdkProviderFields) : undefined;
}

function kept(provider: Record<string, unknown> | undefined): KeptReply | undefined {
  return fieldsOf(provider) as KeptReply | undefined;
}
