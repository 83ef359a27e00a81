import type { MediaPart } from '../core/parts.js';
import { ContentError } from '../errors/content-error.js';
import { parseDataUrl } from './data-url.js';
import { isImageType, isPdf, mediaTypeOf, sniffImage, SNIFF_BYTES } from './media-type.js';
import { partSummary } from './part-label.js';

/** A part's bytes and what they are, read for a request; or the https URL it names (never fetched). */
export type ReadPart = { kind: 'bytes'; bytes: Uint8Array; mediaType: string } | { kind: 'url'; url: string; mediaType: string | undefined };

/**
 * The bytes of a part as an engine sends them, whatever form a store or an app left them in (a
 * Blob, an ArrayBuffer, a Uint8Array, a data: URL), with the media type the bytes say for an
 * image (a claim they contradict is replaced; bytes that are no image a model takes fail
 * `invalid_content`), or the part's https URL as it is.
 */
export async function readPart(part: MediaPart): Promise<ReadPart> {
  const data = part.type === 'image' ? part.image : part.data;
  const image = part.type === 'image' || isImageType(part.mediaType);
  let bytes: Uint8Array;
  let declared = part.mediaType;
  if (typeof data === 'string') {
    if (!/^data:/i.test(data)) return { kind: 'url', url: data, mediaType: declared };
    const url = parseDataUrl(data);
    if ('problem' in url) throw unreadable(part, `its data: URL ${url.problem}`);
    bytes = url.bytes();
    declared ??= url.mediaType;
  } else if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
  else if (ArrayBuffer.isView(data)) bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  else {
    bytes = new Uint8Array(await data.arrayBuffer());
    declared ??= mediaTypeOf(data.type);
  }
  const head = bytes.subarray(0, SNIFF_BYTES);
  if (bytes.length === 0) throw unreadable(part, 'it is empty');
  if (image) {
    const sniffed = sniffImage(head);
    if (!sniffed) throw unreadable(part, 'its bytes are no PNG, JPEG, GIF, WebP, HEIC or AVIF image');
    return { kind: 'bytes', bytes, mediaType: sniffed };
  }
  if (declared === 'application/pdf' && !isPdf(head)) throw unreadable(part, 'it says it is a PDF, and its bytes are not one');
  return { kind: 'bytes', bytes, mediaType: declared ?? 'application/octet-stream' };
}

function unreadable(part: MediaPart, why: string): ContentError {
  const what = partSummary(part);
  return new ContentError('invalid_content', what, `The ${what} cannot be sent: ${why}`);
}
