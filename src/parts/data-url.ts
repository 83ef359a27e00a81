import { base64Size, fromBase64 } from './base64.js';
import { mediaTypeOf } from './media-type.js';

/** A `data:` URL taken apart: its media type (if it names one) and how its bytes are written. */
export interface DataUrl {
  mediaType: string | undefined;
  /** The bytes, decoded on demand (a size cap is checked first, on `size`). */
  bytes(): Uint8Array;
  /** The decoded size, at most (exact for percent-encoded data). */
  size: number;
}

/**
 * `url` as a `data:` URL (`data:[<media type>][;base64],<data>`), or a reason it is not one. The
 * bytes are decoded only when asked, so a part over its cap is refused without decoding it.
 */
export function parseDataUrl(url: string): DataUrl | { problem: string } {
  const comma = url.indexOf(',');
  if (!/^data:/i.test(url) || comma === -1) return { problem: 'is not a data: URL (data:<media type>;base64,<data>)' };
  const meta = url
    .slice(5, comma)
    .split(';')
    .map((piece) => piece.trim());
  const base64 = meta.at(-1)?.toLowerCase() === 'base64';
  const declared = meta[0] ?? '';
  const mediaType = declared === '' ? undefined : mediaTypeOf(declared);
  if (declared !== '' && !mediaType) return { problem: `names the media type ${JSON.stringify(declared.slice(0, 60))}, which is not one` };
  const data = url.slice(comma + 1);
  if (!base64) {
    let text: string;
    try {
      text = decodeURIComponent(data);
    } catch {
      return { problem: 'holds percent-encoded data that does not decode' };
    }
    const bytes = new TextEncoder().encode(text);
    return { mediaType, size: bytes.length, bytes: () => bytes };
  }
  if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(data)) return { problem: 'holds base64 data with characters base64 has not' };
  return { mediaType, size: base64Size(data.replace(/\s+/g, '').length), bytes: () => fromBase64(data) };
}
