// A Chat (the AI SDK's) on the ambi-web transport: approval responses are sent as soon as every
// waiting call of the last step has one, with the AI SDK's own predicate.
import { Chat } from '@ai-sdk/react';
import { type ChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai';

/** `messages`: what an app kept of the chat (say across a reload). */
export function newChat(id: string, transport: ChatTransport<UIMessage>, messages?: UIMessage[]): Chat<UIMessage> {
  return new Chat({ id, transport, sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses, ...(messages ? { messages } : {}) });
}
