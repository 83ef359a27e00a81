import type { FormatMessages } from './messages.js';
import { readBlock } from './payload.js';
import { PayloadBuffer } from './payload-buffer.js';
import { CloseTagScanner, NOT_FOUND } from './scanner.js';
import { settleUnclosed } from './settle.js';
import { TagFinder, WorkMeter, type Tag } from './tag.js';
import type { ParsePart, ToolCallStream } from './types.js';
import { AmbiError } from '../errors/ambi-error.js';

/**
 * The incremental tag parser. Text is emitted as soon as it cannot be the start of an
 * open tag; a block's payload is buffered (see PayloadBuffer) and scanned once, with
 * the scanner's state carried across chunks.
 */
export class TagToolCallStream implements ToolCallStream {
  private readonly meter = new WorkMeter();
  private readonly opener: TagFinder;
  private closer: CloseTagScanner | undefined;
  /** Made when the first block opens: most replies have none, and its buffer is 4 KB. */
  private payload!: PayloadBuffer;
  private ended = false;

  constructor(
    private readonly open: Tag,
    private readonly close: Tag,
    private readonly messages: FormatMessages,
  ) {
    this.opener = new TagFinder(open, this.meter);
  }

  /** Characters scanned so far: a work measure that stays proportional to the input. */
  get scannedChars(): number {
    return this.meter.chars;
  }

  /** Parts complete after this chunk: text that cannot start a tag, and every block whose close tag arrived. */
  push(chunk: string): readonly ParsePart[] {
    // An ended stream has no closer, so the ended check waits for the path outside a block.
    if (this.closer !== undefined) {
      // Sent one character at a time, a reply is mostly characters inside a block that do not end it.
      if (chunk.length === 1) {
        const code = chunk.charCodeAt(0);
        this.payload.appendUnit(code);
        return this.closer.step(code) ? this.finishBlock([]) : NONE;
      }
      const end = this.closer.scan(chunk, 0);
      this.payload.append(chunk, 0, end === NOT_FOUND ? chunk.length : end);
      return end === NOT_FOUND ? NONE : this.readFrom(chunk, end, this.finishBlock([]));
    }
    if (this.ended) throw streamEnded();
    if (chunk.length === 1) {
      // A character that cannot start the open tag is text at once; one that extends a partial match is held.
      const code = chunk.charCodeAt(0);
      if (this.opener.skips(code)) return code < 0x80 ? ASCII_TEXT[code]! : [{ type: 'text', text: chunk }];
      if (this.opener.extends(code)) return NONE;
    }
    const held = this.opener.matched;
    // Held-back text is exactly the open tag's partial match, so it is rebuilt, not stored.
    return held === 0 ? this.readFrom(chunk, 0, []) : this.readFrom(this.open.text.slice(0, held) + chunk, held, [], 0);
  }

  /** The remaining parts: held-back text, or the unclosed block settled by the fallback rules. */
  end(): readonly ParsePart[] {
    if (this.ended) throw streamEnded();
    this.ended = true;
    if (this.closer) {
      this.closer = undefined;
      return settleUnclosed(this.payload.take(), { open: this.open, close: this.close, messages: this.messages, meter: this.meter });
    }
    const held = this.opener.matched;
    return held > 0 ? [{ type: 'text', text: this.open.text.slice(0, held) }] : [];
  }

  /** Text and blocks from s[from..], outside a block; s[textStart..from) is held text already matched. */
  private readFrom(s: string, from: number, parts: ParsePart[], textStart = from): ParsePart[] {
    while (from < s.length) {
      const start = this.opener.find(s, from);
      const textEnd = start < 0 ? s.length - this.opener.matched : start - this.open.length;
      if (textEnd > textStart) parts = add(parts, { type: 'text', text: s.slice(textStart, textEnd) });
      if (start < 0) break;
      this.closer = new CloseTagScanner(this.close, this.meter);
      this.payload ??= new PayloadBuffer();
      const end = this.closer.scan(s, start);
      this.payload.append(s, start, end === NOT_FOUND ? s.length : end);
      if (end === NOT_FOUND) break;
      parts = this.finishBlock(parts);
      from = textStart = end;
    }
    return parts;
  }

  /** `parts` followed by the parts of the block whose close tag just arrived. */
  private finishBlock(parts: ParsePart[]): ParsePart[] {
    const withClose = this.payload.take();
    const payload = withClose.slice(0, withClose.length - this.close.length);
    const raw = this.open.text + withClose;
    this.closer = undefined;
    const block = readBlock(payload, { raw, fallback: false }, this.messages);
    if (parts.length === 0) return block;
    for (const part of block) parts.push(part);
    return parts;
  }
}

/** `parts` with `part` appended: a one-element literal when empty, as growing an empty array costs more than the rest of a small push. */
function add(parts: ParsePart[], part: ParsePart): ParsePart[] {
  if (parts.length === 0) return [part];
  parts.push(part);
  return parts;
}

// Shared results, typed read-only: streamed a character at a time, a reply would otherwise cost an
// allocation or two per character. The arrays are not frozen (iterating a frozen array takes a
// slow path in engines); the parts are.
/** No parts. */
const NONE: readonly ParsePart[] = [];
/** One ASCII character of text, by its code. */
const ASCII_TEXT: ReadonlyArray<readonly ParsePart[]> = Array.from({ length: 0x80 }, (_, code) => [
  Object.freeze({ type: 'text' as const, text: String.fromCharCode(code) }),
]);

const streamEnded = () => new AmbiError('stream_ended', 'This tool-call stream has ended; start a new one with parser.stream()');
