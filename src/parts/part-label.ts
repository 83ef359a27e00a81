import type { ContentPart } from '../core/parts.js';
import { parseDataUrl } from './data-url.js';

/** Bytes for a person: `812 bytes`, `48.2 kB`, `3.1 MB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** What a part is, in a few words: `image/png, 48.2 kB`, `file report.pdf (application/pdf, 3.1 MB)`, `image at https://…`. */
export function partSummary(part: ContentPart): string {
  if (part.type === 'text') return `text, ${part.text.length} characters`;
  const bytes = part.type === 'image' ? part.image : part.data;
  const size = typeof bytes === 'string' ? `at ${bytes.startsWith('data:') ? 'a data: URL' : bytes.slice(0, 80)}` : sizeText(byteLength(bytes));
  const type = part.mediaType ?? 'image';
  if (part.type === 'image') return `image (${type}, ${size})`;
  return `file${part.filename ? ` ${part.filename}` : ''} (${type}, ${size})`;
}

/** The bytes a part's binary data holds (a data: URL's once decoded; 0 for an https: URL, whose bytes ambi-web never fetches). */
export function byteLength(data: Blob | ArrayBuffer | Uint8Array | string): number {
  if (typeof data === 'string') {
    if (!/^data:/i.test(data)) return 0;
    const url = parseDataUrl(data);
    return 'size' in url ? url.size : 0;
  }
  return data instanceof ArrayBuffer ? data.byteLength : 'size' in data ? data.size : data.byteLength;
}
