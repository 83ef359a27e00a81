import type { FormatMessages } from './messages.js';
import { readBlock } from './payload.js';
import { CloseTagScanner, NOT_FOUND } from './scanner.js';
import { settleUnclosed } from './settle.js';
import { TagFinder, WorkMeter, type Tag } from './tag.js';
import type { ParsePart, ToolCallStream } from './types.js';
import { AmbiError } from '../errors/ambi-error.js';

/**
 * The incremental tag parser. Text is emitted as soon as it cannot be the start of an
 * open tag; a block's payload is kept as a list of pieces (joined once, when its close
 * tag arrives) and scanned once, with the scanner's state carried across chunks.
 */
export class TagToolCallStream implements ToolCallStream {
  private readonly meter = new WorkMeter();
  private readonly opener: TagFinder;
  private closer: CloseTagScanner | undefined;
  private payload: string[] = [];
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
  push(chunk: string): ParsePart[] {
    this.assertOpen();
    const parts: ParsePart[] = [];
    // Held-back text is exactly the open tag's partial match, so it is rebuilt, not stored.
    const held = this.closer ? 0 : this.opener.matched;
    const work = held > 0 ? this.open.text.slice(0, held) + chunk : chunk;
    let position = held;
    let textStart = 0;
    while (position < work.length) {
      if (!this.closer) {
        const end = this.opener.find(work, position);
        const textEnd = end < 0 ? work.length - this.opener.matched : end - this.open.length;
        if (textEnd > textStart) parts.push({ type: 'text', text: work.slice(textStart, textEnd) });
        if (end < 0) return parts;
        this.closer = new CloseTagScanner(this.close, this.meter);
        position = end;
      } else {
        const end = this.closer.scan(work, position);
        if (end === NOT_FOUND) {
          this.payload.push(work.slice(position));
          return parts;
        }
        this.payload.push(work.slice(position, end));
        this.finishBlock(parts);
        position = textStart = end;
      }
    }
    return parts;
  }

  /** The remaining parts: held-back text, or the unclosed block settled by the fallback rules. */
  end(): ParsePart[] {
    this.assertOpen();
    this.ended = true;
    if (this.closer) {
      const body = this.payload.join('');
      this.payload = [];
      return settleUnclosed(body, { open: this.open, close: this.close, messages: this.messages, meter: this.meter });
    }
    const held = this.opener.matched;
    return held > 0 ? [{ type: 'text', text: this.open.text.slice(0, held) }] : [];
  }

  private finishBlock(parts: ParsePart[]): void {
    const withClose = this.payload.join('');
    const payload = withClose.slice(0, withClose.length - this.close.length);
    const raw = this.open.text + withClose;
    for (const part of readBlock(payload, { raw, fallback: false }, this.messages)) parts.push(part);
    this.payload = [];
    this.closer = undefined;
  }

  private assertOpen(): void {
    if (this.ended) throw new AmbiError('stream_ended', 'This tool-call stream has ended; start a new one with parser.stream()');
  }
}
