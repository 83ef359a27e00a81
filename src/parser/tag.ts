/** Counts characters the scanners step over: a work measure, so tests can check cost stays linear. */
export class WorkMeter {
  chars = 0;
}

/**
 * A literal tag compiled for incremental matching (Knuth–Morris–Pratt). The match
 * state is one number, so a tag split across chunks is found without rescanning,
 * and each character is read once.
 */
export class Tag {
  readonly length: number;
  /** fallback[i]: length of the longest proper prefix of text[0..i] that is also its suffix. */
  private readonly fallback: Int32Array;

  constructor(readonly text: string) {
    this.length = text.length;
    this.fallback = new Int32Array(text.length);
    for (let i = 1, k = 0; i < text.length; i++) {
      while (k > 0 && text.charCodeAt(i) !== text.charCodeAt(k)) k = this.fallback[k - 1]!;
      if (text.charCodeAt(i) === text.charCodeAt(k)) k++;
      this.fallback[i] = k;
    }
  }

  /** The matched length after reading `code`, given `matched` characters of the tag matched before it. */
  advance(matched: number, code: number): number {
    // A complete match restarts: blocks do not overlap.
    if (matched === this.length) matched = 0;
    while (matched > 0 && this.text.charCodeAt(matched) !== code) matched = this.fallback[matched - 1]!;
    return this.text.charCodeAt(matched) === code ? matched + 1 : matched;
  }
}

/** Finds a tag in plain text across chunks; `matched` is how much of the tag the text read so far ends with. */
export class TagFinder {
  matched = 0;

  constructor(
    private readonly tag: Tag,
    private readonly meter: WorkMeter,
  ) {}

  /** Index just past the first complete tag in s[from..], or -1 (the partial match is kept for the next chunk). */
  find(s: string, from: number): number {
    for (let i = from; i < s.length; i++) {
      this.matched = this.tag.advance(this.matched, s.charCodeAt(i));
      if (this.matched === this.tag.length) {
        this.matched = 0;
        this.meter.chars += i + 1 - from;
        return i + 1;
      }
    }
    this.meter.chars += s.length - from;
    return -1;
  }
}

/** s.indexOf(tag, from), with the span it searched counted as work. */
export function indexOfCounted(s: string, tag: string, from: number, meter: WorkMeter): number {
  const at = s.indexOf(tag, from);
  meter.chars += (at < 0 ? s.length : at + tag.length) - from;
  return at;
}
