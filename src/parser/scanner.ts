import { SHORT_SPAN, type Tag, type WorkMeter } from './tag.js';

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
 * tag) survives chunk boundaries, so no chunk is read again.
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
    // The state lives in locals while scanning and is stored once at the end, not on every character.
    let { inString, escaped, matched } = this;
    let result = NOT_FOUND;
    let i = from;
    for (; i < s.length; i++) {
      const code = s.charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (code === BACKSLASH) escaped = true;
        else if (code === QUOTE) {
          inString = false;
          if (onQuote?.(i + 1, false)) {
            result = STOPPED;
            break;
          }
        } else if (s.length - i > SHORT_SPAN) {
          // Strings are most of a payload: jump to the quote that closes this one (looking back for escapes).
          const end = closingQuote(s, i + 1);
          if (end === NOT_FOUND) {
            escaped = endsInEscape(s, i + 1, s.length);
            i = s.length;
            break;
          }
          inString = false;
          i = end;
          if (onQuote?.(i + 1, false)) {
            result = STOPPED;
            break;
          }
        }
        continue;
      }
      if (code === QUOTE) {
        // A tag never spans a string boundary (tags may not contain '"'), so the partial match restarts.
        inString = true;
        matched = 0;
        if (onQuote?.(i + 1, true)) {
          result = STOPPED;
          break;
        }
        continue;
      }
      // Outside strings (short in JSON) the tag is matched character by character, so no search runs ahead.
      matched = this.tag.advance(matched, code);
      if (matched === this.tag.length) {
        matched = 0;
        result = i + 1;
        break;
      }
    }
    this.inString = inString;
    this.escaped = escaped;
    this.matched = matched;
    this.meter.chars += (result === NOT_FOUND ? s.length : i + 1) - from;
    return result;
  }

  /** `scan` of a one-character chunk, without the loop: true when `code` completes the closing tag. */
  step(code: number): boolean {
    this.meter.chars++;
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (code === BACKSLASH) this.escaped = true;
      else if (code === QUOTE) this.inString = false;
      return false;
    }
    if (code === QUOTE) {
      this.inString = true;
      this.matched = 0;
      return false;
    }
    const matched = this.tag.advance(this.matched, code);
    this.matched = matched === this.tag.length ? 0 : matched;
    return matched === this.tag.length;
  }
}

/** Index of the first '"' at or after `from` that no backslash escapes (none is pending at `from`), or NOT_FOUND. */
function closingQuote(s: string, from: number): number {
  for (let quote = s.indexOf('"', from); quote >= 0; quote = s.indexOf('"', from)) {
    if (!endsInEscape(s, from, quote)) return quote;
    from = quote + 1;
  }
  return NOT_FOUND;
}

/**
 * Whether s[from..end) ends in an odd run of backslashes, i.e. escapes what follows.
 * No escape is pending at `from`, and the run is bounded by the span just jumped
 * over, so looking back keeps the scan linear.
 */
function endsInEscape(s: string, from: number, end: number): boolean {
  let run = end;
  while (run > from && s.charCodeAt(run - 1) === BACKSLASH) run--;
  return (end - run) % 2 === 1;
}
