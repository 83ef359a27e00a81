import type { ContentPart } from '../core/parts.js';
import type { Message } from '../core/types.js';
import { partSummary } from './part-label.js';

/** A message's content as text: a string as it is, parts as their text, each image or file named in brackets (`[image (image/png, 48.2 kB)]`). */
export function contentText(content: string | readonly ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : `[${partSummary(part)}]`)).join('\n\n');
}

/** Whether a message holds parts beyond text: a person's images or files, a tool's parts. */
export function holdsMedia(message: Message): boolean {
  if (message.role === 'user') return typeof message.content !== 'string' && message.content.some((part) => part.type !== 'text');
  return message.role === 'tool' && message.parts !== undefined && message.parts.length > 0;
}

/** The text parts of a message, joined by blank lines (a string content is its own text). */
export function textOf(content: string | readonly ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n\n');
}
