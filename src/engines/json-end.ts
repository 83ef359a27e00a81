import { parseJsonOr } from '../parser/parse-json.js';

const NOT_JSON = Symbol('not JSON');

/**
 * Whether streamed JSON text is, so far, one whole value: an object, an array or a string (a
 * tool call's arguments, maybe double-encoded). Each character is read once, and JSON.parse
 * runs at most once, where the outermost value closes: parsing the whole text at every piece
 * would cost a hostile stream of many small pieces quadratic time. Once whole, anything but
 * white space after it, or a value that closed but did not parse, can never be whole again.
 */
export class JsonEnd {
  /** How much of the text has been read. */
  private read = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private state: 'open' | 'whole' | 'broken' = 'open';

  /** Whether `text`, which starts with the text given before, is one whole value: only what is new is read. */
  isWhole(text: string): boolean {
    for (; this.read < text.length && this.state !== 'broken'; this.read++) {
      const code = text.charCodeAt(this.read);
      if (this.state === 'whole') {
        if (!isSpace(code)) this.state = 'broken';
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) {
          this.inString = false;
          if (this.depth === 0) this.closed(text);
        }
      } else if (code === QUOTE) this.inString = true;
      else if (code === OPEN_BRACE || code === OPEN_BRACKET) this.depth++;
      else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        if (--this.depth === 0) this.closed(text);
        else if (this.depth < 0) this.state = 'broken';
      }
    }
    return this.state === 'whole';
  }

  /** The outermost value just closed at the character being read: whole if the text up to it parses. */
  private closed(text: string): void {
    this.state = parseJsonOr(text.slice(0, this.read + 1), NOT_JSON) === NOT_JSON ? 'broken' : 'whole';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** JSON's white space: space, tab, line feed, carriage return. */
function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}
