import { SHORT_SPAN } from './tag.js';

/** Code units held before they are decoded into a string (small enough to spread into a call). */
const UNITS = 4096;
// ignoreBOM keeps a U+FEFF that starts a piece; lone surrogates (which the decoder would replace) never reach it.
const utf16 = new TextDecoder('utf-16le', { ignoreBOM: true });

/**
 * A block's payload as it streams in. Small chunks (a token or a character each) are
 * copied into a buffer of UTF-16 code units, decoded once per few thousand: appending
 * them to a string costs an allocation per chunk and a flattening pass before
 * JSON.parse. Larger chunks are appended as strings.
 */
export class PayloadBuffer {
  private text = '';
  private units: Uint16Array | undefined;
  private used = 0;
  private surrogates = false;

  /** Append s[from..to). */
  append(s: string, from: number, to: number): void {
    if (to - from > SHORT_SPAN) {
      this.flush();
      this.text += s.slice(from, to);
      return;
    }
    for (let i = from; i < to; i++) this.appendUnit(s.charCodeAt(i));
  }

  /** Append one UTF-16 code unit. */
  appendUnit(unit: number): void {
    if (this.used === UNITS) this.flush();
    if ((unit & 0xf800) === 0xd800) this.surrogates = true;
    (this.units ??= new Uint16Array(UNITS))[this.used++] = unit;
  }

  /** The payload appended so far; the buffer is empty afterwards. */
  take(): string {
    this.flush();
    const text = this.text;
    this.text = '';
    return text;
  }

  private flush(): void {
    if (this.used === 0) return;
    const units = this.units!.subarray(0, this.used);
    // Code units are copied as they are, so a surrogate pair split across chunks joins up again.
    this.text += this.surrogates ? String.fromCharCode(...units) : utf16.decode(units);
    this.used = 0;
    this.surrogates = false;
  }
}
