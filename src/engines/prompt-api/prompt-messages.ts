import type { Message } from '../../core/types.js';
import type { PromptApiMessage } from './access.js';

/**
 * A conversation as the Prompt API takes it: the system prompt (with `instructions`) and every
 * message up to the model's last reply open the session (`initialPrompts`); what came after that
 * reply (the person's message, the results of its calls) is the prompt. The Prompt API knows no
 * tool role: a call is written as the JSON the model replies with, a result as a user message.
 */
export function promptMessages(messages: readonly Message[], instructions: string): { initialPrompts: PromptApiMessage[]; input: PromptApiMessage[] } {
  const system = [...messages.filter((message) => message.role === 'system').map((message) => message.content), instructions]
    .filter((text) => text !== '')
    .join('\n\n');
  const rest = messages.filter((message) => message.role !== 'system');
  let lastReply = rest.length - 1;
  while (lastReply >= 0 && rest[lastReply]!.role !== 'assistant') lastReply--;
  const initialPrompts: PromptApiMessage[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of rest.slice(0, lastReply + 1)) initialPrompts.push(promptMessage(message));
  const input = rest.slice(lastReply + 1).map(promptMessage);
  return { initialPrompts, input: input.length > 0 ? input : [{ role: 'user', content: '' }] };
}

function promptMessage(message: Message): PromptApiMessage {
  switch (message.role) {
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return { role: 'assistant', content: JSON.stringify({ calls: calls.map((call) => ({ name: call.name, arguments: call.arguments })) }) };
    }
    case 'tool':
      return { role: 'user', content: `Result of ${message.name} (call ${message.toolCallId}): ${message.content}` };
    default:
      return { role: 'user', content: message.content };
  }
}
