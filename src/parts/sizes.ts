import type { ContentPart } from '../core/parts.js';
import type { Message } from '../core/types.js';
import { byteLength } from './part-label.js';

/** The bytes one part holds (a text part's and a URL's count nothing: the text is counted as text, a URL is never fetched). */
export function partBytes(part: ContentPart): number {
  if (part.type === 'text') return 0;
  return byteLength(part.type === 'image' ? part.image : part.data);
}

/** The parts beyond text a message holds: a person's images and files, a tool's parts. */
export function mediaOf(message: Message): readonly ContentPart[] {
  if (message.role === 'user' && typeof message.content !== 'string') return message.content;
  if (message.role === 'tool' && message.parts) return message.parts;
  return [];
}

/** The bytes the parts of `messages` hold together. */
export function messagesBytes(messages: readonly Message[]): number {
  let bytes = 0;
  for (const message of messages) for (const part of mediaOf(message)) bytes += partBytes(part);
  return bytes;
}
