import type { ParsePart, ParseResult, ToolCallStream } from '../../src/parser/types.js';
import { collectParts } from '../../src/parser/collect.js';
import { formatMessages } from '../../src/parser/messages.js';
import { readBlock } from '../../src/parser/payload.js';

/** A result with call ids removed, so results of different parses compare. */
export function withoutIds(result: ParseResult) {
  return {
    text: result.text,
    calls: result.calls.map(({ name, arguments: args }) => ({ name, arguments: args })),
    errors: result.errors,
  };
}

/** Split `input` at the given cut points (taken modulo its length). */
export function chunk(input: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (input.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(input.slice(from, point));
    from = point;
  }
  chunks.push(input.slice(from));
  return chunks;
}

/** Feed chunks to a stream and collect every part, end() included. */
export function streamAll(stream: ToolCallStream, chunks: readonly string[]): ParsePart[] {
  const parts: ParsePart[] = [];
  for (const piece of chunks) parts.push(...stream.push(piece));
  parts.push(...stream.end());
  return parts;
}

/** Collect streamed parts into a result without ids. */
export function collected(parts: Iterable<ParsePart>) {
  return withoutIds(collectParts(parts));
}

/**
 * The specification written the slow, obvious way (quadratic in the worst case): find
 * the open tag; scan for a close tag outside JSON strings; failing that, cut at the
 * first literal close tag; failing that, the rest is one unclosed error. It shares
 * only the reading of one payload with the parser, so it checks the segmentation.
 */
export function referenceParse(input: string, open: string, close: string) {
  const messages = formatMessages({ open, close });
  const parts: ParsePart[] = [];
  let position = 0;
  for (;;) {
    const at = input.indexOf(open, position);
    if (at < 0) {
      parts.push({ type: 'text', text: input.slice(position) });
      break;
    }
    parts.push({ type: 'text', text: input.slice(position, at) });
    const start = at + open.length;
    let end = closeOutsideStrings(input, start, close);
    const fallback = end < 0;
    if (fallback) end = input.indexOf(close, start);
    if (end < 0) {
      parts.push({ type: 'error', error: { code: 'malformed_tool_call', message: messages.unclosed(), raw: input.slice(at) } });
      break;
    }
    parts.push(...readBlock(input.slice(start, end), { raw: input.slice(at, end + close.length), fallback }, messages));
    position = end + close.length;
  }
  return collected(parts);
}

function closeOutsideStrings(input: string, from: number, close: string): number {
  let inString = false;
  let escaped = false;
  for (let i = from; i < input.length; i++) {
    const char = input[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (input.startsWith(close, i)) return i;
  }
  return -1;
}
