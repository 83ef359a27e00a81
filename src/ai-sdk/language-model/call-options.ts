import type { Message, ToolCall } from '../../core/types.js';
import type { EngineRequest } from '../../engines/types.js';
import { RUNTIME_PREFIX } from '../../engines/openai/request.js';
import type { AiSdkAssistantPart, AiSdkCallOptions, AiSdkLanguageModel, AiSdkMessage, AiSdkProviderFields } from './model-shape.js';
import { contentOutput, filePart, supportedUrls } from './prompt-parts.js';

/** Where the engine keeps a provider's fields on our messages (`ToolCall.provider`, `AssistantMessage.provider`), apart from other engines'. */
export const PROVIDER_KEY = 'aiSdk';

/** What the engine keeps of an assistant reply for the provider: its reasoning (signed, for some), and its text's own fields. */
export interface KeptReply {
  reasoning?: Array<{ text: string; providerOptions?: AiSdkProviderFields }>;
  text?: AiSdkProviderFields;
}

/** The call options of one request: the prompt (its images and files read), function tools, the tool choice, the answer's schema, the run's abort. */
export async function callOptions(request: EngineRequest, nativeTools: boolean, model: AiSdkLanguageModel): Promise<AiSdkCallOptions> {
  const options: AiSdkCallOptions = { prompt: await promptOf(request.messages, nativeTools, model) };
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
async function promptOf(messages: readonly Message[], nativeTools: boolean, model: AiSdkLanguageModel): Promise<AiSdkMessage[]> {
  const prompt: AiSdkMessage[] = [];
  const version = model.specificationVersion;
  // Read only for a request with a URL part: the provider says which URLs it fetches itself.
  let urls: Record<string, RegExp[]> | undefined;
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: message.content });
        break;
      case 'user': {
        if (typeof message.content === 'string') {
          prompt.push({ role: 'user', content: [{ type: 'text', text: message.origin === 'runtime' ? RUNTIME_PREFIX + message.content : message.content }] });
          break;
        }
        const content: Extract<AiSdkMessage, { role: 'user' }>['content'] = [];
        for (const part of message.content) {
          if (part.type === 'text') content.push({ type: 'text', text: part.text });
          else content.push(await filePart(part, version, (urls ??= await supportedUrls(model))));
        }
        prompt.push({ role: 'user', content });
        break;
      }
      case 'assistant':
        prompt.push({ role: 'assistant', content: assistantParts(message.content, nativeTools ? (message.toolCalls ?? []) : [], kept(message.provider)) });
        break;
      case 'tool': {
        const parts = message.parts ?? [];
        if (!nativeTools) {
          const text = `${RUNTIME_PREFIX}Result of tool call ${message.toolCallId} (${message.name}): ${message.content}`;
          const files = [];
          for (const part of parts) files.push(await filePart(part, version, (urls ??= await supportedUrls(model))));
          prompt.push({ role: 'user', content: [{ type: 'text', text }, ...files] });
          break;
        }
        const result = {
          type: 'tool-result' as const,
          toolCallId: message.toolCallId,
          toolName: message.name,
          // A tool's images and files go where the specification puts them: in its result's content.
          output: parts.length > 0 ? await contentOutput(message.content, parts, version) : { type: 'text' as const, value: message.content },
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
