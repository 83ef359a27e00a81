import type { ContentPart, MediaPart } from '../../core/parts.js';
import type { Message } from '../../core/types.js';
import { toBase64 } from '../../parts/base64.js';
import { readPart } from '../../parts/read-part.js';
import type { CassettePart } from './cassette.js';

/**
 * The parts of recorded (or replayed) requests by the hash of their bytes: a cassette names each
 * image or file `sha256:<hex>` in its requests and keeps the bytes once, beside them (`parts`), so a
 * screenshot sent again on every turn is stored once and a request compares by hash. Each Blob is
 * read and hashed once. An https: URL is named as itself (never fetched).
 */
export class PartHashes {
  /** By Blob (or by part, for bytes that are not a Blob): the reference and what the bytes are. */
  readonly #known = new WeakMap<object, Promise<{ ref: string; mediaType: string }>>();
  readonly #settled = new WeakMap<object, { ref: string; mediaType: string }>();
  readonly #records = new Map<string, CassettePart>();

  /** Read and hash every part of `messages` not seen yet; a part that cannot be read is left for the engine to refuse. */
  async hashAll(messages: readonly Message[]): Promise<void> {
    const pending: Promise<unknown>[] = [];
    for (const part of mediaParts(messages)) pending.push(this.#hash(part).catch(() => undefined));
    await Promise.all(pending);
  }

  /** A part as a cassette writes it: its bytes named by hash (after `hashAll`), its URL as it is. */
  record(part: ContentPart, clock: (text: string) => string): ContentPart {
    if (part.type === 'text') return { type: 'text', text: clock(part.text) };
    const data = part.type === 'image' ? part.image : part.data;
    const known = this.#settled.get(keyOf(part));
    const ref = known?.ref ?? (typeof data === 'string' && !/^data:/i.test(data) ? data : 'unread');
    const mediaType = known?.mediaType ?? part.mediaType;
    if (part.type === 'image') return { type: 'image', image: ref, ...(mediaType ? { mediaType } : {}) };
    return { type: 'file', data: ref, mediaType: mediaType ?? part.mediaType, ...(part.filename !== undefined ? { filename: part.filename } : {}) };
  }

  /** The bytes of every part hashed so far, by reference. */
  records(): Record<string, CassettePart> {
    return Object.fromEntries(this.#records);
  }

  #hash(part: MediaPart): Promise<unknown> {
    const key = keyOf(part);
    let known = this.#known.get(key);
    if (!known) {
      known = (async () => {
        const read = await readPart(part);
        if (read.kind === 'url') return { ref: read.url, mediaType: read.mediaType ?? part.mediaType ?? '' };
        const ref = await digest(read.bytes);
        if (!this.#records.has(ref)) this.#records.set(ref, { mediaType: read.mediaType, data: toBase64(read.bytes) });
        return { ref, mediaType: read.mediaType };
      })();
      this.#known.set(key, known);
      known.then((settled) => this.#settled.set(key, settled)).catch(() => {});
    }
    return known;
  }
}

/** What a part is known by: its Blob (the same image in many messages is read once), else the part itself. */
function keyOf(part: MediaPart): object {
  const data = part.type === 'image' ? part.image : part.data;
  return typeof data === 'object' ? data : part;
}

function* mediaParts(messages: readonly Message[]): Generator<MediaPart> {
  for (const message of messages) {
    if (message.role === 'user' && typeof message.content !== 'string') for (const part of message.content) if (part.type !== 'text') yield part;
    if (message.role === 'tool' && message.parts) yield* message.parts;
  }
}

/** `sha256:<hex>` of the bytes (WebCrypto: every browser on https or localhost, and Node). */
async function digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes.slice()));
  return `sha256:${Array.from(hash, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
