// The parts a message holds beyond text, named as the AI SDK names them (`ai`'s `TextPart`,
// `ImagePart`, `FilePart`). Types only.

/** Text in a message of parts. */
export interface TextPart {
  type: 'text';
  text: string;
}

/**
 * An image: its bytes (a `Blob` or `File`, an `ArrayBuffer`, a `Uint8Array`) or a `data:` or
 * `https:` URL. `mediaType` (`image/png`, …) where the bytes or the URL do not say it; the bytes
 * decide where they say something else. Stored, the bytes are a `Blob`.
 */
export interface ImagePart {
  type: 'image';
  image: Blob | ArrayBuffer | Uint8Array | string;
  mediaType?: string;
}

/** A file (a PDF, a text document, audio): its bytes or a `data:` or `https:` URL, its media type, and its name. Stored, the bytes are a `Blob`. */
export interface FilePart {
  type: 'file';
  data: Blob | ArrayBuffer | Uint8Array | string;
  mediaType: string;
  filename?: string;
}

/** One part of a person's message. */
export type ContentPart = TextPart | ImagePart | FilePart;

/** An image or a file: what a tool returns beside its output (`withParts`), and what an engine may or may not take. */
export type MediaPart = ImagePart | FilePart;

/** What a run is given: the person's words, or a list of parts (text, images, files). */
export type RunInput = string | readonly ContentPart[];

/** What kinds of parts an engine sends to its model (`Engine.accepts`); absent ones it does not take. */
export interface PartKinds {
  image?: boolean;
  file?: boolean;
}
