// Images and files in the specification's prompt shapes, which differ by version: a person's part
// is a `file` part everywhere (its data raw bytes or a URL in v2 and v3, `{ type: 'data' | 'url' }`
// in v4); a tool's parts go in a `content` tool output (`media` in v2, `image-data` / `file-data` in
// v3, `file` in v4), beside the result's text. A provider maps them to its own wire form (Anthropic:
// image and document blocks, also inside a tool_result).
import type { MediaPart } from '../../core/parts.js';
import { ContentError } from '../../errors/content-error.js';
import { toBase64 } from '../../parts/base64.js';
import { isImageType } from '../../parts/media-type.js';
import { partSummary } from '../../parts/part-label.js';
import { readPart } from '../../parts/read-part.js';
import type { AiSdkFilePart, AiSdkLanguageModel, AiSdkToolOutput } from './model-shape.js';

type Version = AiSdkLanguageModel['specificationVersion'];

/** A person's image or file as a prompt's `file` part. `urls`: the URLs the provider fetches itself, by media type (`model.supportedUrls`). */
export async function filePart(part: MediaPart, version: Version, urls: Record<string, RegExp[]>): Promise<AiSdkFilePart> {
  const read = await readPart(part);
  const filename = part.type === 'file' && part.filename ? { filename: part.filename } : {};
  if (read.kind === 'url') {
    const mediaType = read.mediaType ?? (part.type === 'image' ? 'image/*' : 'application/octet-stream');
    if (!fetchedByProvider(read.url, mediaType, urls)) {
      const what = partSummary(part);
      throw new ContentError(
        'unsupported_content',
        what,
        `The ${what} cannot be sent: this provider does not fetch such URLs itself, and ambi-web never does; give its bytes`,
      );
    }
    const url = new URL(read.url);
    return { type: 'file', data: version === 'v4' ? { type: 'url', url } : url, mediaType, ...filename };
  }
  return { type: 'file', data: version === 'v4' ? { type: 'data', data: read.bytes } : read.bytes, mediaType: read.mediaType, ...filename };
}

/** A tool's result with its parts, as a `content` output: the result's text first, then each part. */
export async function contentOutput(text: string, parts: readonly MediaPart[], version: Version): Promise<AiSdkToolOutput> {
  const value: Array<Record<string, unknown>> = [{ type: 'text', text }];
  for (const part of parts) {
    const read = await readPart(part);
    if (read.kind === 'url') {
      // Only v3 names URLs in a tool's output; elsewhere the model reads where the part is.
      if (version === 'v3') value.push({ type: isImageType(read.mediaType) || part.type === 'image' ? 'image-url' : 'file-url', url: read.url });
      else value.push({ type: 'text', text: `[${partSummary(part)}]` });
      continue;
    }
    const data = toBase64(read.bytes);
    const filename = part.type === 'file' && part.filename ? { filename: part.filename } : {};
    if (version === 'v2') value.push({ type: 'media', data, mediaType: read.mediaType });
    else if (version === 'v3')
      value.push(
        isImageType(read.mediaType)
          ? { type: 'image-data', data, mediaType: read.mediaType }
          : { type: 'file-data', data, mediaType: read.mediaType, ...filename },
      );
    else value.push({ type: 'file', data: { type: 'data', data }, mediaType: read.mediaType, ...filename });
  }
  return { type: 'content', value };
}

/** The URLs a provider fetches itself (`supportedUrls`), whose patterns may be read as a promise. */
export async function supportedUrls(model: AiSdkLanguageModel): Promise<Record<string, RegExp[]>> {
  try {
    const urls = await (model as { supportedUrls?: unknown }).supportedUrls;
    return typeof urls === 'object' && urls !== null ? (urls as Record<string, RegExp[]>) : {};
  } catch {
    return {};
  }
}

function fetchedByProvider(url: string, mediaType: string, urls: Record<string, RegExp[]>): boolean {
  const [top] = mediaType.split('/');
  for (const [pattern, tests] of Object.entries(urls)) {
    const matches = pattern === '*' || pattern === '*/*' || pattern === mediaType || pattern === `${top}/*` || pattern === top;
    if (matches && Array.isArray(tests) && tests.some((test) => test instanceof RegExp && test.test(url))) return true;
  }
  return false;
}
