import { isAmbiError } from '../../errors/ambi-error.js';

/** How reading a body reports progress and failures to the request that owns it. */
export interface BodyReadHooks {
  /** Called for every piece received (restarts the idle timeout). */
  onActivity?(): void;
  /** The coded error for a failed read (aborted, timed out, or the connection broke). */
  explain(error: unknown): Error;
}

/** When a body that has not ended may be taken as whole. */
export interface BodySettling {
  /** How long the body must have sent nothing before `complete` is asked. */
  quietMs: number;
  /** Whether the text so far is a whole body (JSON that parses, say). */
  complete(text: string): boolean;
}

/**
 * A whole response body as text. Every piece restarts the idle timeout, so a slow body that
 * is still arriving is not taken for a silent one. With `settling`, text that is complete is
 * kept when the server then holds the connection open (read on after `quietMs` of silence),
 * breaks it or goes silent past the timeout; only the caller's abort still fails.
 */
export async function readBodyText(body: ReadableStream<Uint8Array>, hooks: BodyReadHooks, settling?: BodySettling): Promise<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let quiet: ReturnType<typeof setTimeout> | undefined;
  // Cancelling settles the pending read as done, which ends the loop as at the body's end.
  const settleIfComplete = () => {
    if (settling?.complete(text)) reader.cancel().catch(() => {});
  };
  try {
    for (;;) {
      let piece: string | undefined;
      try {
        piece = await readTextPiece(reader, decoder, hooks);
      } catch (explained) {
        if (!isAmbiError(explained, 'aborted') && settling?.complete(text)) return text;
        throw explained;
      }
      if (piece === undefined) break;
      text += piece;
      clearTimeout(quiet);
      // Asked only after a silence, so a body of many pieces is not parsed once per piece.
      if (settling) quiet = setTimeout(settleIfComplete, settling.quietMs);
    }
  } finally {
    clearTimeout(quiet);
    reader.cancel().catch(() => {});
  }
  return text + decoder.decode();
}

/**
 * The next piece of a body, decoded, or `undefined` at its end. Each piece counts as activity
 * (the idle timeout restarts); a failed read throws the hooks' coded error.
 */
export async function readTextPiece(reader: ReadableStreamDefaultReader<Uint8Array>, decoder: TextDecoder, hooks: BodyReadHooks): Promise<string | undefined> {
  let piece: ReadableStreamReadResult<Uint8Array>;
  try {
    piece = await reader.read();
  } catch (error) {
    throw hooks.explain(error);
  }
  if (piece.done) return undefined;
  hooks.onActivity?.();
  return decoder.decode(piece.value, { stream: true });
}
