import type { FormatMessages } from './messages.js';
import { readBlock } from './payload.js';
import { CloseTagScanner, NOT_FOUND } from './scanner.js';
import { indexOfCounted, type Tag, type WorkMeter } from './tag.js';
import type { ParsePart } from './types.js';

const OUTSIDE = 1;
const INSIDE = 2;

/** What settling needs: the tags, the model-facing messages, and the work meter. */
export interface SettleContext {
  open: Tag;
  close: Tag;
  messages: FormatMessages;
  meter: WorkMeter;
}

/**
 * The reply ended inside a block whose string-aware scan found no close tag.
 * `body` is everything after that block's open tag. Cut the block at the first
 * literal close tag, then read the rest as usual; a later block whose scan also
 * reaches the end is cut the same way. Without a literal close tag either, the rest
 * is one "unclosed" error.
 *
 * Rescanning naively is quadratic on replies like `[T] "[/T]" [T] "[/T]" ...`, so
 * scans share what they learn: `deadEnds` marks (index just after a quote, in or out
 * of a string) from which a scan is known to reach the end without a close tag. The
 * scan's future depends only on that pair, so a scan that reaches a marked pair
 * gives up at once; each pair is marked once, which keeps the whole pass linear.
 */
export function settleUnclosed(body: string, context: SettleContext): ParsePart[] {
  const { open, close, messages, meter } = context;
  const parts: ParsePart[] = [];
  const deadEnds = new Uint8Array(body.length + 1);
  // The streamed scan of this block already failed from index 0: record its path.
  new CloseTagScanner(close, meter).scan(body, 0, (next, inString) => {
    deadEnds[next]! |= inString ? INSIDE : OUTSIDE;
    return false;
  });

  let start = 0;
  for (;;) {
    const cut = indexOfCounted(body, close.text, start, meter);
    if (cut < 0) {
      const raw = open.text + body.slice(start);
      parts.push({ type: 'error', error: { code: 'malformed_tool_call', message: messages.unclosed(), raw } });
      return parts;
    }
    const payload = body.slice(start, cut);
    append(parts, readBlock(payload, { raw: open.text + payload + close.text, fallback: true }, messages));
    let position = cut + close.length;
    for (;;) {
      const at = indexOfCounted(body, open.text, position, meter);
      if (at < 0) {
        if (position < body.length) parts.push({ type: 'text', text: body.slice(position) });
        return parts;
      }
      if (at > position) parts.push({ type: 'text', text: body.slice(position, at) });
      start = at + open.length;
      const end = scanRemembering(body, start, close, deadEnds, meter);
      if (end === NOT_FOUND) break;
      const inner = body.slice(start, end - close.length);
      append(parts, readBlock(inner, { raw: open.text + inner + close.text, fallback: false }, messages));
      position = end;
    }
  }
}

/** A string-aware scan from `start` that gives up on reaching a known dead end, and records its own path if it fails. */
function scanRemembering(body: string, start: number, close: Tag, deadEnds: Uint8Array, meter: WorkMeter): number {
  const path: number[] = [];
  const end = new CloseTagScanner(close, meter).scan(body, start, (next, inString) => {
    const state = inString ? INSIDE : OUTSIDE;
    if (deadEnds[next]! & state) return true;
    path.push(next, state);
    return false;
  });
  if (end >= 0) return end;
  for (let i = 0; i < path.length; i += 2) deadEnds[path[i]!]! |= path[i + 1]!;
  return NOT_FOUND;
}

/** Push one by one: spreading a block of many thousand items into push() can overflow the stack. */
function append(parts: ParsePart[], items: readonly ParsePart[]): void {
  for (const item of items) parts.push(item);
}
