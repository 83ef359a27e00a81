import { parseJsonOr } from '../../parser/parse-json.js';

const NOT_JSON = Symbol('not JSON');

/**
 * Whether streamed JSON text is, so far, one whole value: an object, an array or a string (a
 * tool call's arguments, maybe double-encoded). Pieces are read when the question is asked,
 * each character once, and JSON.parse runs at most once, where the outermost value closes:
 * parsing the whole text at every piece would cost a hostile stream of many small pieces
 * quadratic time. Once whole, anything but white space after it, or a value that closed but
 * did not parse, can never be whole again.
 */
export class JsonEnd {
  /** Pieces not read yet. Each is read on its own: indexing into the joined text would flatten it every time. */
  private pending: string[] = [];
  /** The text read so far (a rope; flattened only by the one JSON.parse). */
  private seen = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private state: 'open' | 'whole' | 'broken' = 'open';

  /** Take the next piece of the text. */
  append(piece: string): void {
    if (this.state !== 'broken') this.pending.push(piece);
  }

  /** Whether the text so far is one whole value. */
  get whole(): boolean {
    for (const piece of this.pending) {
      this.read(piece);
      this.seen += piece;
    }
    this.pending = [];
    return this.state === 'whole';
  }

  private read(piece: string): void {
    for (let i = 0; i < piece.length && this.state !== 'broken'; i++) {
      const code = piece.charCodeAt(i);
      if (this.state === 'whole') {
        if (!isSpace(code)) this.state = 'broken';
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) {
          this.inString = false;
          if (this.depth === 0) this.closed(piece, i);
        }
      } else if (code === QUOTE) this.inString = true;
      else if (code === OPEN_BRACE || code === OPEN_BRACKET) this.depth++;
      else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
        if (--this.depth === 0) this.closed(piece, i);
        else if (this.depth < 0) this.state = 'broken';
      }
    }
  }

  /** The outermost value just closed at piece[i]: whole if the text up to there parses. */
  private closed(piece: string, i: number): void {
    this.state = parseJsonOr(this.seen + piece.slice(0, i + 1), NOT_JSON) === NOT_JSON ? 'broken' : 'whole';
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
