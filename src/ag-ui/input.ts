// A person's AG-UI message (`RunAgentInput.messages`' last user message) as a run's input: AG-UI
// 1.0's content parts, read without `@ag-ui/core` at run time. The run checks the parts it gets
// (bytes, media types, caps) as it checks any input; this only maps one shape onto the other.
import type { ContentPart, RunInput } from '../core/parts.js';
import { ContentError } from '../errors/content-error.js';

/** Where an AG-UI media part's bytes are: inline (base64), at a URL, or at a provider under a handle. */
export type AgUiPartSource =
  | { type: 'data'; value: string; mimeType: string }
  | { type: 'url'; value: string; mimeType?: string }
  | { type: 'file'; value: string; provider?: string; mimeType?: string };

/** One part of an AG-UI user message's `content`. */
export type AgUiContentPart =
  | { type: 'text'; text: string; id?: string; metadata?: unknown }
  | { type: 'image' | 'audio' | 'video' | 'document'; source: AgUiPartSource; id?: string; metadata?: unknown };

/**
 * An AG-UI user message's `content` (a string, or AG-UI 1.0 content parts) as what `run()` takes:
 * text as text, an image as an image part, audio, video and documents as file parts. A part held
 * at a provider under a handle (`source.type: 'file'`) has no bytes a run could send: it is refused
 * coded `unsupported_content`, naming the part, rather than dropped unsaid.
 *
 * @example
 * ```ts
 * // Needs: ambi-web
 * import { fromAgUiContent } from 'ambi-web/ag-ui';
 *
 * const input = fromAgUiContent([
 *   { type: 'text', text: 'What is on this receipt?' },
 *   { type: 'image', source: { type: 'url', value: 'https://example.com/receipt.png', mimeType: 'image/png' } },
 * ]);
 * console.log(input); // [{ type: 'text', … }, { type: 'image', image: 'https://example.com/receipt.png', mediaType: 'image/png' }]
 * ```
 */
export function fromAgUiContent(content: string | readonly AgUiContentPart[]): RunInput {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    throw new ContentError('invalid_content', 'the message', 'An AG-UI message content must be a string or an array of content parts');
  return content.map((part, index) => contentPart(part, index + 1));
}

function contentPart(part: AgUiContentPart, number: number): ContentPart {
  const name = `part ${number}`;
  if (part === null || typeof part !== 'object') throw new ContentError('invalid_content', name, `${name} is not an AG-UI content part`);
  if (part.type === 'text') {
    if (typeof part.text !== 'string') throw new ContentError('invalid_content', name, `${name} (text) has no text`);
    return { type: 'text', text: part.text };
  }
  if (part.type !== 'image' && part.type !== 'audio' && part.type !== 'video' && part.type !== 'document')
    throw new ContentError('invalid_content', name, `${name} has the unknown AG-UI type ${JSON.stringify(String((part as { type?: unknown }).type))}`);
  const { bytes, mediaType } = sourceOf(part.source, `${name} (${part.type})`);
  if (part.type === 'image') return { type: 'image', image: bytes, ...(mediaType !== undefined ? { mediaType } : {}) };
  if (mediaType === undefined) throw new ContentError('invalid_content', name, `${name} (${part.type}) has no mimeType: a file part needs its media type`);
  return { type: 'file', data: bytes, mediaType };
}

const MEDIA_TYPE = /^[\w.+-]+\/[\w.+-]+$/;

/** The part's bytes as the run takes them (a `data:` URL or the URL itself) and its media type. */
function sourceOf(source: AgUiPartSource, name: string): { bytes: string; mediaType: string | undefined } {
  if (source === null || typeof source !== 'object' || typeof source.value !== 'string')
    throw new ContentError('invalid_content', name, `${name} has no source with a value`);
  const mediaType = typeof source.mimeType === 'string' ? source.mimeType : undefined;
  // Spliced into a data: URL below: a type with a ',' or a ';' in it would rewrite the URL.
  if (mediaType !== undefined && !MEDIA_TYPE.test(mediaType))
    throw new ContentError('invalid_content', name, `${name}'s mimeType ${JSON.stringify(mediaType.slice(0, 80))} is not a media type`);
  switch (source.type) {
    case 'data':
      if (mediaType === undefined) throw new ContentError('invalid_content', name, `${name}'s inline data has no mimeType`);
      return { bytes: `data:${mediaType};base64,${source.value}`, mediaType };
    case 'url':
      return { bytes: source.value, mediaType };
    case 'file':
      throw new ContentError(
        'unsupported_content',
        name,
        `${name} is held at ${source.provider ?? 'a provider'} under a handle, and a run sends bytes or URLs only: give its data or a URL`,
      );
    default:
      throw new ContentError('invalid_content', name, `${name} has the unknown source type ${JSON.stringify(String((source as { type?: unknown }).type))}`);
  }
}
