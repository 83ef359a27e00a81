// Images and files for the parts tests: real bytes of each format (a 1×1 PNG, a JPEG, a PDF), an
// engine that takes what it is told and records what it gets, and a look at a stored Blob.
import type { Engine, Message } from '../../src/index.js';
import type { EngineEvent, EngineRequest, PartKinds } from '../../src/extend/index.js';

const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** A 1×1 PNG, 68 bytes. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
export const PNG = fromBase64(PNG_BASE64);
/** A 1×1 JPEG. */
export const JPEG_BASE64 =
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=';
export const JPEG = fromBase64(JPEG_BASE64);
/** A PDF's first bytes (enough for what ambi-web reads of one). */
export const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** A PNG of `bytes` bytes: the signature, then zeros (a model would refuse it; ambi-web reads only its signature). */
export function pngOfSize(bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  out.set(PNG.subarray(0, 16));
  return out;
}

/** An engine that takes the parts `accepts` says, answers from `replies` (text, or native calls), and records each request as it got it. */
export class PartsEngine implements Engine {
  readonly requests: EngineRequest[] = [];
  readonly nativeTools = true;
  #next = 0;

  constructor(
    readonly replies: Array<string | { calls: Array<{ id: string; name: string; arguments?: unknown }> }>,
    readonly accepts: PartKinds = { image: true, file: true },
  ) {}

  async *stream(request: EngineRequest): AsyncIterable<EngineEvent> {
    this.requests.push({ ...request, messages: [...request.messages] });
    const reply = this.replies[this.#next++];
    if (reply === undefined) throw new Error('PartsEngine ran out of replies');
    if (typeof reply === 'string') {
      yield { type: 'text', text: reply };
      yield { type: 'finish', reason: 'stop' };
      return;
    }
    for (const call of reply.calls) yield { type: 'tool_call', call: { id: call.id, name: call.name, arguments: call.arguments ?? {} } };
    yield { type: 'finish', reason: 'tool_calls' };
  }
}

/** The parts of a message beyond its text: a person's, or a tool's. */
export function partsOf(message: Message | undefined): unknown[] {
  if (!message) return [];
  if (message.role === 'user' && typeof message.content !== 'string') return message.content.filter((part) => part.type !== 'text');
  return message.role === 'tool' ? (message.parts ?? []) : [];
}

/** The bytes of a Blob. */
export async function bytesOf(blob: unknown): Promise<Uint8Array> {
  if (!(blob instanceof Blob)) throw new Error(`not a Blob: ${String(blob)}`);
  return new Uint8Array(await blob.arrayBuffer());
}
