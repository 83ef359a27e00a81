// What a part costs in a request, in tokens, where the engine counts none: a stated estimate, the
// same for every provider (none of them counts a part before the request is sent).
import type { ContentPart } from '../core/parts.js';
import type { Message } from '../core/types.js';
import { isImageType } from './media-type.js';
import { byteLength } from './part-label.js';

/**
 * An image: 1,600 tokens, whatever its size. Anthropic counts width × height / 750 of an image
 * scaled to at most 1,568 px a side (so at most about 1,600); OpenAI's high detail at most 1,105;
 * Gemini 258 per 768 px tile (about 1,550 for a 1080p screenshot): an estimate a little above
 * what one image costs, so a budget trims before a provider refuses.
 */
export const IMAGE_TOKENS = 1600;
/** Text files: 4 bytes a token, as text is counted. PDFs and other documents: 32 bytes a token (a page of 50 kB is about Anthropic's 1,500). Audio: 1,000 bytes a token (about Gemini's 32 tokens a second of 16 kHz speech). */
const BYTES_PER_TOKEN = { text: 4, audio: 1000, other: 32 };

/** The tokens one part costs (a text part: characters / 4). */
export function partTokens(part: ContentPart): number {
  if (part.type === 'text') return Math.ceil(part.text.length / 4);
  if (part.type === 'image' || isImageType(part.mediaType)) return IMAGE_TOKENS;
  const bytes = byteLength(part.data);
  if (bytes === 0) return IMAGE_TOKENS; // a URL: its size is not known here
  const kind = part.mediaType.startsWith('text/') ? 'text' : part.mediaType.startsWith('audio/') ? 'audio' : 'other';
  return Math.ceil(bytes / BYTES_PER_TOKEN[kind]);
}

/** The tokens of a message's parts beyond text (a person's images and files, a tool's parts); 0 for a message of text. */
export function mediaTokens(message: Message): number {
  const parts = message.role === 'user' && typeof message.content !== 'string' ? message.content : message.role === 'tool' ? message.parts : undefined;
  if (!parts) return 0;
  let tokens = 0;
  for (const part of parts) if (part.type !== 'text') tokens += partTokens(part);
  return tokens;
}
