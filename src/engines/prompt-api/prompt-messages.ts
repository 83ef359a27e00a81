import type { MediaPart } from '../../core/parts.js';
import type { Message } from '../../core/types.js';
import { ContentError } from '../../errors/content-error.js';
import { parseDataUrl } from '../../parts/data-url.js';
import { isImageType } from '../../parts/media-type.js';
import { partSummary } from '../../parts/part-label.js';
import type { PromptApiContent, PromptApiMessage } from './access.js';

/**
 * A conversation as the Prompt API takes it: the system prompt (with `instructions`) and every
 * message up to the model's last reply open the session (`initialPrompts`); what came after that
 * reply (the person's message, the results of its calls) is the prompt. The Prompt API knows no
 * tool role: a call is written as the JSON the model replies with, a result as a user message.
 */
export function promptMessages(messages: readonly Message[], instructions: string): { initialPrompts: PromptApiMessage[]; input: PromptApiMessage[] } {
  const system = [...messages.flatMap((message) => (message.role === 'system' ? [message.content] : [])), instructions]
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
    case 'tool': {
      const text = `Result of ${message.name} (call ${message.toolCallId}): ${message.content}`;
      if (!message.parts || message.parts.length === 0) return { role: 'user', content: text };
      return { role: 'user', content: [{ type: 'text', value: text }, ...message.parts.map(imageContent)] };
    }
    case 'system':
      return { role: 'user', content: message.content };
    default:
      if (typeof message.content === 'string') return { role: 'user', content: message.content };
      return { role: 'user', content: message.content.map((part) => (part.type === 'text' ? { type: 'text', value: part.text } : imageContent(part))) };
  }
}

/** Whether a request's messages hold images (the session must then expect them). */
export function holdsImages(messages: readonly Message[]): boolean {
  return messages.some(
    (m) =>
      (m.role === 'user' && typeof m.content !== 'string' && m.content.some((p) => p.type !== 'text')) || (m.role === 'tool' && (m.parts?.length ?? 0) > 0),
  );
}

/**
 * An image as the Prompt API takes it: a Blob (the browser decodes it). Bytes given otherwise become
 * one; an https: URL cannot (the browser's model takes bytes, and ambi-web never fetches a URL),
 * nor can a file that is no image (the engine says it takes images only).
 */
function imageContent(part: MediaPart): PromptApiContent {
  const data = part.type === 'image' ? part.image : part.data;
  const what = partSummary(part);
  if (part.type === 'file' && !isImageType(part.mediaType))
    throw new ContentError('unsupported_content', what, `The ${what} cannot be sent: the browser's built-in model takes images, not files`);
  if (data instanceof Blob) return { type: 'image', value: data };
  if (typeof data !== 'string')
    return { type: 'image', value: new Blob([data instanceof ArrayBuffer ? data.slice(0) : data.slice()], { type: part.mediaType ?? '' }) };
  const url = /^data:/i.test(data) ? parseDataUrl(data) : undefined;
  if (!url || 'problem' in url)
    throw new ContentError(
      'unsupported_content',
      what,
      `The ${what} cannot be sent: the browser's built-in model takes an image's bytes, not its URL (ambi-web never fetches it)`,
    );
  return { type: 'image', value: new Blob([url.bytes().slice()], { type: part.mediaType ?? url.mediaType ?? '' }) };
}
