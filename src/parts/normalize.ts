// A part as a message keeps it, from what an app, a tool or a UI gave: checked and made plain.
//
//   - only own fields are read (`type`, `text`, `image`, `data`, `mediaType`, `filename`), and a
//     new object is made of them: an inherited or `__proto__` field never counts, others are dropped;
//   - bytes (`ArrayBuffer`, `Uint8Array`, a `data:` URL) become a `Blob` of their media type, which
//     crosses a worker and goes into IndexedDB as it is; a `Blob` is kept as given, never copied;
//   - an image's bytes, where they are at hand, decide its media type (a `data:image/png` URL of
//     JPEG bytes is a JPEG); bytes that are no image a model takes are refused, as is an empty part;
//   - a string is a `data:` URL or an `https:` URL (kept as a URL: ambi-web never fetches it);
//     `javascript:`, `file:`, `blob:`, `http:` and anything else are refused;
//   - a part over `maxPartBytes` is refused before its bytes are decoded.
import type { ContentPart, FilePart, ImagePart, MediaPart } from '../core/parts.js';
import { ContentError } from '../errors/content-error.js';
import { parseDataUrl } from './data-url.js';
import { isImageType, isPdf, mediaTypeOf, sniffImage, SNIFF_BYTES } from './media-type.js';
import { sizeText } from './part-label.js';

/** The most parts one message may hold (a provider takes far fewer images than this in a request). */
export const MAX_PARTS = 1000;
const MAX_FILENAME = 255;

/** A run's input parts as its user message keeps them; throws a `ContentError` naming the first part that cannot be. */
export function contentParts(input: unknown, maxPartBytes: number): ContentPart[] {
  return listOf(input, 'message').map((part, at) => contentPart(part, at, maxPartBytes, true) as ContentPart);
}

/** A tool's parts (`withParts`) as its result keeps them: images and files only. */
export function mediaParts(input: unknown, maxPartBytes: number): MediaPart[] {
  return listOf(input, 'tool result').map((part, at) => contentPart(part, at, maxPartBytes, false) as MediaPart);
}

function listOf(input: unknown, what: string): readonly unknown[] {
  if (!Array.isArray(input)) throw new ContentError('invalid_content', `the ${what}'s parts`, `The ${what}'s parts are not a list of parts`);
  if (input.length > MAX_PARTS)
    throw new ContentError('invalid_content', `the ${what}'s parts`, `The ${what} holds ${input.length} parts; at most ${MAX_PARTS} are taken`);
  return input;
}

function contentPart(part: unknown, at: number, maxPartBytes: number, textAllowed: boolean): ContentPart {
  const where = `part ${at + 1}`;
  if (typeof part !== 'object' || part === null || Array.isArray(part)) throw invalid(where, 'is not a part object');
  const type = own(part, 'type');
  if (type === 'text' && textAllowed) {
    const text = own(part, 'text');
    if (typeof text !== 'string') throw invalid(where, 'is a text part without a string text');
    return { type: 'text', text };
  }
  if (type === 'image') return imagePart(part, where, maxPartBytes);
  if (type === 'file') return filePart(part, where, maxPartBytes);
  const kinds = textAllowed ? 'text, image or file' : 'image or file';
  throw invalid(where, `has the type ${JSON.stringify(String(type).slice(0, 40))}, not ${kinds}`);
}

function imagePart(part: object, where: string, maxPartBytes: number): ImagePart {
  const given = own(part, 'mediaType');
  const declared = given === undefined ? undefined : mediaTypeOf(given);
  if (given !== undefined && (!declared || !isImageType(declared))) throw invalid(where, `names the media type ${shown(given)}, which is no image's`);
  const source = sourceOf(own(part, 'image'), declared, `${where} (image)`, maxPartBytes);
  if (typeof source.value === 'string') return { type: 'image', image: source.value, ...(declared ? { mediaType: declared } : {}) };
  const mediaType = source.sniffed ?? declared ?? imageTypeOf(source.value);
  if (source.head && !source.sniffed) throw notAnImage(where, declared);
  return { type: 'image', image: source.value, ...(mediaType ? { mediaType } : {}) };
}

function filePart(part: object, where: string, maxPartBytes: number): FilePart {
  const given = own(part, 'mediaType');
  const declared = mediaTypeOf(given);
  if (!declared) throw invalid(where, `is a file part whose media type is ${shown(given)}, not one (application/pdf, text/plain, …)`);
  const name = own(part, 'filename');
  if (name !== undefined && (typeof name !== 'string' || name.length > MAX_FILENAME || hasControlCharacter(name)))
    throw invalid(where, `names the file ${shown(name)}: a filename is a string of at most ${MAX_FILENAME} characters, without control characters`);
  const source = sourceOf(own(part, 'data'), declared, `${where} (file)`, maxPartBytes);
  let mediaType = declared;
  if (source.head && isImageType(declared)) {
    if (!source.sniffed) throw notAnImage(where, declared);
    mediaType = source.sniffed;
  }
  if (source.head && declared === 'application/pdf' && !isPdf(source.head)) throw invalid(where, 'says it is a PDF, and its bytes are not one');
  return { type: 'file', data: source.value, mediaType, ...(name !== undefined ? { filename: name } : {}) };
}

/** Where a part's bytes are: a Blob (the head read where the bytes were at hand: then `sniffed` is what they are), or an https URL. */
interface Source {
  value: Blob | string;
  head?: Uint8Array;
  sniffed?: string;
}

function sourceOf(value: unknown, declared: string | undefined, where: string, maxPartBytes: number): Source {
  if (typeof Blob !== 'undefined' && value instanceof Blob) {
    checkSize(value.size, where, maxPartBytes);
    return { value };
  }
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    const bytes = value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    checkSize(bytes.length, where, maxPartBytes);
    return fromBytes(bytes, declared);
  }
  if (typeof value !== 'string') throw invalid(where, `has ${shown(value)} for its bytes: a Blob, an ArrayBuffer, a Uint8Array, or a data: or https: URL`);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value.trimStart())?.[1]?.toLowerCase();
  if (scheme === 'data') {
    const url = parseDataUrl(value.trim());
    if ('problem' in url) throw invalid(where, url.problem);
    checkSize(url.size, where, maxPartBytes);
    return fromBytes(url.bytes(), declared ?? url.mediaType);
  }
  if (scheme === 'https') {
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      throw invalid(where, 'is an https: URL that does not parse');
    }
    return { value: url.href };
  }
  const what = scheme ? `a ${scheme}: URL` : 'a string that is no URL';
  throw invalid(where, `is ${what}: an image or file is given as bytes, or as a data: or https: URL (ambi-web never fetches any other)`);
}

/** Bytes as a Blob of their media type: what the bytes say they are, for an image. */
function fromBytes(bytes: Uint8Array, declared: string | undefined): Source {
  const head = bytes.subarray(0, SNIFF_BYTES);
  const sniffed = sniffImage(head);
  const type = sniffed ?? declared ?? '';
  // Copied: the app may reuse its buffer, and a Blob is what stores and workers keep.
  return { value: new Blob([bytes.slice()], { type }), head, ...(sniffed ? { sniffed } : {}) };
}

function checkSize(size: number, where: string, maxPartBytes: number): void {
  if (size === 0) throw invalid(where, 'is empty (0 bytes)');
  if (size > maxPartBytes)
    throw new ContentError('content_too_large', where, `${capital(where)} holds ${sizeText(size)}, over maxPartBytes (${sizeText(maxPartBytes)})`);
}

/** A Blob's own type, where it names an image. */
function imageTypeOf(blob: Blob | string): string | undefined {
  const type = typeof blob === 'string' ? undefined : mediaTypeOf(blob.type);
  return isImageType(type) ? type : undefined;
}

function notAnImage(where: string, declared: string | undefined): ContentError {
  const svg = declared === 'image/svg+xml' ? ' (SVG is text: draw it to a PNG first)' : '';
  return invalid(where, `says it is ${declared ?? 'an image'}, and its bytes are no PNG, JPEG, GIF, WebP, HEIC or AVIF image${svg}`);
}

/** Whether `text` holds a control character (below U+0020): no filename has one. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x20) return true;
  return false;
}

function own(object: object, key: string): unknown {
  return Object.hasOwn(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 60));
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function invalid(where: string, why: string): ContentError {
  return new ContentError('invalid_content', where, `${capital(where)} ${why}`);
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
