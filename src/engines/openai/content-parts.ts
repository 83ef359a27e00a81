// Messages with parts (images, files) in the chat-completions shape. A person's parts go in the
// user message's content list: an image as `image_url` (a data: URL of its bytes, or its https
// URL), WAV and MP3 as `input_audio`, any other file as `file` (`file_data`, a data: URL: OpenAI's
// form for PDFs). Chat-completions tool messages hold text only, so a tool's parts follow its
// batch of tool messages in one user message, which names the call each part came from: every
// server that takes `image_url` takes it there, and the tool messages stay right after the
// assistant message whose calls they answer, as servers require.
import type { MediaPart } from '../../core/parts.js';
import type { Message } from '../../core/types.js';
import { toBase64 } from '../../parts/base64.js';
import { readPart } from '../../parts/read-part.js';
import { partSummary } from '../../parts/part-label.js';
import { ContentError } from '../../errors/content-error.js';
import { isImageType } from '../../parts/media-type.js';
import type { EngineRequest } from '../types.js';
import type { OpenAICompatibleConfig } from './openai-compatible.js';
import { bodyAfterMessages, RUNTIME_PREFIX, toWireMessage } from './request.js';

type WirePart = Record<string, unknown>;

/** The base64 of parts' bytes, read once per Blob for as long as the Blob lives (a conversation's image is encoded once, not per request). */
export class PartEncoder {
  readonly #encoded = new WeakMap<Blob, Promise<WirePart>>();

  /** One part in the chat-completions shape. */
  wire(part: MediaPart): Promise<WirePart> {
    const data = part.type === 'image' ? part.image : part.data;
    if (!(data instanceof Blob)) return wirePart(part);
    let encoded = this.#encoded.get(data);
    if (!encoded) {
      encoded = wirePart(part);
      this.#encoded.set(data, encoded);
      encoded.catch(() => this.#encoded.delete(data));
    }
    return encoded;
  }
}

/** The body of a request whose messages hold parts: as `requestBody` writes it, the parts encoded. */
export async function bodyWithParts(config: OpenAICompatibleConfig, request: EngineRequest, encoder: PartEncoder): Promise<string> {
  const messages: Record<string, unknown>[] = [];
  /** The parts of the batch of tool messages being written, by call, for the user message that follows the batch. */
  let pending: WirePart[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    messages.push({ role: 'user', content: pending });
    pending = [];
  };
  for (const message of request.messages) {
    if (message.role !== 'tool') flush();
    if (message.role === 'user' && typeof message.content !== 'string') {
      messages.push({ role: 'user', content: await userParts(message.content, encoder) });
    } else if (message.role === 'tool' && message.parts && message.parts.length > 0) {
      const label = { type: 'text', text: `${RUNTIME_PREFIX}What tool call ${message.toolCallId} (${message.name}) returned beside its result:` };
      const parts = [label, ...(await Promise.all(message.parts.map((part) => encoder.wire(part))))];
      if (config.nativeTools) {
        messages.push(toWireMessage(message, true));
        pending.push(...parts);
      } else messages.push({ role: 'user', content: [{ type: 'text', text: String(toWireMessage(message, false).content) }, ...parts.slice(1)] });
    } else messages.push(toWireMessage(message, config.nativeTools));
  }
  flush();
  return JSON.stringify({ model: config.model, messages, ...bodyAfterMessages(config, request) });
}

async function userParts(content: Extract<Message, { role: 'user' }>['content'], encoder: PartEncoder): Promise<WirePart[]> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Promise.all(content.map((part) => (part.type === 'text' ? { type: 'text', text: part.text } : encoder.wire(part))));
}

/** One image or file as chat completions take it. */
async function wirePart(part: MediaPart): Promise<WirePart> {
  const read = await readPart(part);
  const image = part.type === 'image' || isImageType(read.mediaType);
  if (read.kind === 'url') {
    if (image) return { type: 'image_url', image_url: { url: read.url } };
    const what = partSummary(part);
    throw new ContentError(
      'unsupported_content',
      what,
      `The ${what} cannot be sent: chat completions take a file's bytes, not its URL (ambi-web never fetches it)`,
    );
  }
  const base64 = toBase64(read.bytes);
  if (image) return { type: 'image_url', image_url: { url: `data:${read.mediaType};base64,${base64}` } };
  const audio = AUDIO_FORMATS[read.mediaType];
  if (audio) return { type: 'input_audio', input_audio: { data: base64, format: audio } };
  const filename = part.type === 'file' && part.filename ? part.filename : undefined;
  return { type: 'file', file: { ...(filename ? { filename } : {}), file_data: `data:${read.mediaType};base64,${base64}` } };
}

const AUDIO_FORMATS: Record<string, string> = { 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/wave': 'wav', 'audio/mpeg': 'mp3', 'audio/mp3': 'mp3' };
