// Parts as the stores keep them: bytes as `Blob`s (IndexedDB holds a Blob as it is, never as
// base64 in JSON), URLs as strings; and the rule a stored part follows.
import type { ContentPart } from '../core/parts.js';
import type { Message } from '../core/types.js';
import { fromBase64 } from '../parts/base64.js';
import { isRecord, shown } from './record-shape.js';

/**
 * `messages` with every part's bytes as a Blob: an `ArrayBuffer`, a `Uint8Array` or a base64
 * `data:` URL (a message a caller made by hand, say) becomes one of its media type. Messages
 * without such bytes are returned as they are (the same objects).
 */
export function withBlobParts(messages: readonly Message[]): readonly Message[] {
  if (!messages.some(holdsBytes)) return messages;
  return messages.map((message) => {
    if (!holdsBytes(message)) return message;
    if (message.role === 'user') return { ...message, content: (message.content as ContentPart[]).map(blobPart) };
    return { ...message, parts: (message as { parts: ContentPart[] }).parts.map(blobPart) } as Message;
  });
}

/** Why a message's parts are not what a store keeps, or undefined. `content` is a user message's content, `parts` a tool message's. */
export function partsFault(parts: unknown, textAllowed: boolean): string | undefined {
  if (!Array.isArray(parts)) return `its parts are ${shown(parts)}, not a list`;
  for (const [i, part] of parts.entries()) {
    const fault = partFault(part, textAllowed);
    if (fault) return `its part ${i} ${fault}`;
  }
  return undefined;
}

function partFault(part: unknown, textAllowed: boolean): string | undefined {
  if (!isRecord(part)) return 'is not an object';
  const own = (key: string) => (Object.hasOwn(part, key) ? part[key] : undefined);
  const type = own('type');
  if (type === 'text' && textAllowed) return typeof own('text') === 'string' ? undefined : 'is a text part without a string text';
  if (type !== 'image' && type !== 'file') return `has the type ${shown(type)}`;
  const data = own(type === 'image' ? 'image' : 'data');
  if (!isBytes(data) && typeof data !== 'string') return `has ${shown(data)} for its bytes, not a Blob or a URL`;
  const mediaType = own('mediaType');
  if (!(typeof mediaType === 'string' || (type === 'image' && mediaType === undefined))) return `has the media type ${shown(mediaType)}`;
  const filename = own('filename');
  if (filename !== undefined && typeof filename !== 'string') return `has the filename ${shown(filename)}`;
  return undefined;
}

/** Whether a message (of any shape: the rules refuse a bad one after this) holds bytes that are not a Blob yet. */
function holdsBytes(message: unknown): boolean {
  if (!isRecord(message)) return false;
  const parts = message.role === 'user' ? message.content : message.role === 'tool' ? message.parts : undefined;
  if (!Array.isArray(parts)) return false;
  return parts.some((part: unknown) => {
    if (!isRecord(part) || (part.type !== 'image' && part.type !== 'file')) return false;
    const data = part.type === 'image' ? part.image : part.data;
    return (data instanceof ArrayBuffer || ArrayBuffer.isView(data) || typeof data === 'string') && !isStored(data);
  });
}

/** Kept as it is: a Blob, or a URL that is not a base64 data: URL. */
function isStored(data: unknown): boolean {
  return (typeof Blob !== 'undefined' && data instanceof Blob) || (typeof data === 'string' && !/^data:[^,]*;base64,/i.test(data));
}

function isBytes(data: unknown): boolean {
  return (typeof Blob !== 'undefined' && data instanceof Blob) || data instanceof ArrayBuffer || ArrayBuffer.isView(data);
}

function blobPart(part: ContentPart): ContentPart {
  if (part.type === 'text') return part;
  const data = part.type === 'image' ? part.image : part.data;
  if (isStored(data)) return part;
  const blob = toBlob(data as ArrayBuffer | Uint8Array | string, part.mediaType);
  return part.type === 'image' ? { ...part, image: blob } : { ...part, data: blob };
}

function toBlob(data: ArrayBuffer | Uint8Array | string, mediaType: string | undefined): Blob | string {
  if (typeof data !== 'string') return new Blob([data instanceof ArrayBuffer ? data.slice(0) : data.slice()], { type: mediaType ?? '' });
  const comma = data.indexOf(',');
  const declared = data.slice(5, comma).split(';')[0] ?? '';
  try {
    return new Blob([fromBase64(data.slice(comma + 1)).slice()], { type: mediaType ?? declared });
  } catch {
    return data; // not base64 after all: kept as given, and refused by the part rule if it is not a URL
  }
}
