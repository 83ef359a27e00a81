import type { Tag, WorkMeter } from './tag.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** `scan` found no closing tag in the text given; the state is kept for the next chunk. */
export const NOT_FOUND = -1;
/** `scan` stopped because its `onQuote` hook asked it to. */
export const STOPPED = -2;

/**
 * Called just after each double quote that opens or closes a JSON string, with the
 * index after it and whether the scan is now inside a string. Return true to stop.
 * At that point the whole scanner state is (index, inString): no escape is pending
 * and no partial tag is matched, which is what lets the end-of-input fallback reuse
 * what earlier scans learnt (see settle.ts).
 */
export type QuoteHook = (next: number, inString: boolean) => boolean;

/**
 * Finds a closing tag that lies outside JSON strings, so `"see [/TOOL_CALL]"` inside
 * an argument does not end the call. Its state (in string, escape pending, partial
 * tag) survives chunk boundaries, so each character is read once.
 */
export class CloseTagScanner {
  private inString = false;
  private escaped = false;
  private matched = 0;

  constructor(
    private readonly tag: Tag,
    private readonly meter: WorkMeter,
  ) {}

  /** Index just past the first closing tag outside strings in s[from..], NOT_FOUND, or STOPPED. */
  scan(s: string, from: number, onQuote?: QuoteHook): number {
    for (let i = from; i < s.length; i++) {
      const code = s.charCodeAt(i);
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) {
          this.inString = false;
          if (onQuote?.(i + 1, false)) return this.count(i + 1 - from, STOPPED);
        }
        continue;
      }
      if (code === QUOTE) {
        // A tag never spans a string boundary (tags may not contain '"'), so the partial match restarts.
        this.inString = true;
        this.matched = 0;
        if (onQuote?.(i + 1, true)) return this.count(i + 1 - from, STOPPED);
        continue;
      }
      this.matched = this.tag.advance(this.matched, code);
      if (this.matched === this.tag.length) {
        this.matched = 0;
        return this.count(i + 1 - from, i + 1);
      }
    }
    return this.count(s.length - from, NOT_FOUND);
  }

  private count(chars: number, result: number): number {
    this.meter.chars += chars;
    return result;
  }
}
