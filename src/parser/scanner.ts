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
          // Strings are most of a payload: jump to the next quote, then look back for escapes.
          const end = nextQuote(s, i + 1);
          escaped = endsInEscape(s, i + 1, end);
          i = end - 1;
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

  /** Whether one character leaves the state as it is (plain text inside a string), counted if so: a shortcut for tiny chunks. */
  passes(code: number): boolean {
    if (!this.inString || this.escaped || code === QUOTE || code === BACKSLASH) return false;
    this.meter.chars++;
    return true;
  }
}

/** Index of the next '"' at or after `from`, or the end of `s`. */
function nextQuote(s: string, from: number): number {
  const quote = s.indexOf('"', from);
  return quote < 0 ? s.length : quote;
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
