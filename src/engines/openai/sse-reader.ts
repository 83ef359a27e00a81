import { createParser, type ParseError } from 'eventsource-parser';
import { EngineError } from '../../errors/engine-error.js';
import { type BodyReadHooks, readTextPiece } from './body-text.js';
import { preview } from './server-message.js';

/** One server-sent event. */
export interface SseMessage {
  /** The `event:` name, if the server gave one (`error` for a server-reported failure). */
  event?: string;
  data: string;
  /** Dispatched by the end-of-stream flush: complete only if the server just forgot the blank line. */
  trailing: boolean;
}

/** How reading reports progress and failures to the request that owns the body, and how it is stopped. */
export interface SseReadHooks extends BodyReadHooks {
  /** Fired when the answer is whole but the server holds the body open: reading ends as if the body had. */
  stop?: AbortSignal;
}

/** How much of a body that is not SSE is quoted in the error. */
const STRAY_PREVIEW = 200;

/**
 * Read an SSE body as messages. Comments (keep-alives) are skipped by the parser. Breaking
 * out of the loop cancels the body, which closes the connection. A body that ends with no
 * event at all but with lines SSE does not know (an HTML page, plain text) is not SSE:
 * `malformed_stream`, quoting its start. The content type is not trusted for this, since some
 * servers send SSE without one.
 */
export async function* readSse(body: ReadableStream<Uint8Array>, hooks: SseReadHooks): AsyncGenerator<SseMessage> {
  const queue: SseMessage[] = [];
  let flushing = false;
  let sawEvent = false;
  let stray = '';
  let failure: EngineError | undefined;
  const parser = createParser({
    onEvent: (event) => queue.push({ event: event.event, data: event.data, trailing: flushing }),
    onError: (error) => {
      failure ??= fieldFailure(error, queue, flushing);
      if (error.type === 'unknown-field' && error.field !== 'error' && stray.length < STRAY_PREVIEW) stray += ` ${error.line ?? error.field ?? ''}`;
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // Cancelling settles a pending read as done, so the loop below ends as at the body's end.
  const stop = () => void reader.cancel().catch(() => {});
  hooks.stop?.addEventListener('abort', stop);
  try {
    for (;;) {
      const piece = await readTextPiece(reader, decoder, hooks);
      if (piece === undefined) break;
      parser.feed(piece);
      sawEvent ||= queue.length > 0;
      // Inline rather than a helper generator: this runs for every network read.
      while (queue.length > 0) yield queue.shift()!;
      if (failure) throw failure;
    }
    // Dispatch a last event that lacks its blank line (llama.cpp ends with a bare `data: [DONE]`).
    flushing = true;
    parser.feed(`${decoder.decode()}\n\n`);
    sawEvent ||= queue.length > 0;
    while (queue.length > 0) yield queue.shift()!;
    if (failure) throw failure;
    if (!sawEvent && stray.trim() !== '') {
      throw new EngineError('malformed_stream', `The model server answered with a body that is neither SSE nor JSON: ${preview(stray, STRAY_PREVIEW)}`);
    }
  } finally {
    hooks.stop?.removeEventListener('abort', stop);
    reader.cancel().catch(() => {});
  }
}

/**
 * A line the SSE grammar does not know. Old llama.cpp servers report failures as a bare
 * `error: {json}` field: surfaced as an `error` event. A line of raw JSON (an NDJSON body, not
 * SSE) is malformed. Other unknown fields are ignored, as the SSE spec says.
 */
function fieldFailure(error: ParseError, queue: SseMessage[], trailing: boolean): EngineError | undefined {
  if (error.type !== 'unknown-field') return undefined;
  if (error.field === 'error') {
    queue.push({ event: 'error', data: error.value ?? '', trailing });
    return undefined;
  }
  const line = error.line ?? error.field ?? '';
  if (/^\s*[[{]/.test(line)) {
    return new EngineError('malformed_stream', `The model server sent a line that is not SSE: ${preview(line, 200)}`);
  }
  return undefined;
}
