import { SHORT_SPAN } from './tag.js';

/** Code units held before they are decoded into a string (small enough to spread into a call). */
const UNITS = 4096;
// For bytes below 0x80, windows-1252 (what 'latin1' means to TextDecoder) is the identity, and decodes twice as fast.
const ascii = new TextDecoder('windows-1252');
// ignoreBOM keeps a U+FEFF that starts a piece; lone surrogates (which the decoder would replace) never reach it.
const utf16 = new TextDecoder('utf-16le', { ignoreBOM: true });

/**
 * A block's payload as it streams in. Small chunks (a token or a character each) are
 * copied into a buffer of code units, decoded once per few thousand: appending them to
 * a string costs an allocation per chunk and a flattening pass before JSON.parse.
 * Larger chunks are appended as strings. The buffer holds bytes while every unit since
 * the last decode is ASCII, as JSON mostly is, and UTF-16 units from the first that is not.
 */
export class PayloadBuffer {
  private text = '';
  private readonly bytes = new Uint8Array(UNITS);
  private units: Uint16Array | undefined;
  private used = 0;
  private wide = false;
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
    if (unit < 0x80 && !this.wide && this.used < UNITS) this.bytes[this.used++] = unit;
    else this.appendRare(unit);
  }

  /** The payload appended so far; the buffer is empty afterwards. */
  take(): string {
    this.flush();
    const text = this.text;
    this.text = '';
    return text;
  }

  /** appendUnit's other cases: a full buffer, or a unit that is not ASCII. */
  private appendRare(unit: number): void {
    if (this.used === UNITS) this.flush();
    if (!this.wide) {
      if (unit < 0x80) {
        this.bytes[this.used++] = unit;
        return;
      }
      const units = (this.units ??= new Uint16Array(UNITS));
      if (this.used > 0) units.set(this.bytes.subarray(0, this.used));
      this.wide = true;
    }
    if ((unit & 0xf800) === 0xd800) this.surrogates = true;
    this.units![this.used++] = unit;
  }

  private flush(): void {
    if (this.used === 0) return;
    if (!this.wide) this.text += ascii.decode(this.bytes.subarray(0, this.used));
    else {
      const units = this.units!.subarray(0, this.used);
      // Code units are copied as they are, so a surrogate pair split across chunks joins up again.
      this.text += this.surrogates ? String.fromCharCode(...units) : utf16.decode(units);
    }
    this.used = 0;
    this.wide = false;
    this.surrogates = false;
  }
}
