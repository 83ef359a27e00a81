// What bytes are, from their first bytes: the formats models take as images, and PDF. A part's
// declared media type is a claim; these signatures are what the bytes say of themselves.

/** Bytes enough to tell every format below apart. */
export const SNIFF_BYTES = 32;

/** Image formats a model takes (OpenAI, Anthropic and Gemini between them), by signature. */
const IMAGE_SIGNATURES: ReadonlyArray<{ type: string; test: (b: Uint8Array) => boolean }> = [
  { type: 'image/png', test: (b) => starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'image/jpeg', test: (b) => starts(b, [0xff, 0xd8, 0xff]) },
  { type: 'image/gif', test: (b) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a') },
  { type: 'image/webp', test: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP') },
  { type: 'image/heic', test: (b) => ascii(b, 4, 'ftyp') && ['heic', 'heix', 'mif1', 'msf1'].some((brand) => ascii(b, 8, brand)) },
  { type: 'image/avif', test: (b) => ascii(b, 4, 'ftyp') && ['avif', 'avis'].some((brand) => ascii(b, 8, brand)) },
];

/** The image format the bytes start with, or undefined when they are none of those above. */
export function sniffImage(head: Uint8Array): string | undefined {
  return IMAGE_SIGNATURES.find((signature) => signature.test(head))?.type;
}

/** Whether the bytes start as a PDF does. */
export function isPdf(head: Uint8Array): boolean {
  return ascii(head, 0, '%PDF-');
}

/** A media type as a part may give it: `type/subtype`, nothing more (parameters such as `;charset=` are dropped by `mediaTypeOf`). */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** `given` as a media type (`type/subtype`, lower case, parameters dropped), or undefined when it is not one. */
export function mediaTypeOf(given: unknown): string | undefined {
  if (typeof given !== 'string') return undefined;
  const type = given.split(';')[0]!.trim().toLowerCase();
  return MEDIA_TYPE.test(type) ? type : undefined;
}

/** Whether a media type is an image's. */
export function isImageType(mediaType: string | undefined): boolean {
  return mediaType?.startsWith('image/') === true;
}

function starts(bytes: Uint8Array, signature: readonly number[]): boolean {
  return signature.every((byte, i) => bytes[i] === byte);
}

function ascii(bytes: Uint8Array, at: number, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
}
