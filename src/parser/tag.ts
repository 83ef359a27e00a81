/** Below this many characters a native search costs more than stepping (small streamed chunks). */
export const SHORT_SPAN = 16;

/**
 * Counts characters the scanners move past, each once: a work measure, so tests can check
 * cost stays linear. Native searches within a counted span read it a bounded number of times.
 */
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
  /** The first character's code unit. */
  readonly first: number;
  /** fallback[i]: length of the longest proper prefix of text[0..i] that is also its suffix. */
  private readonly fallback: Int32Array;

  constructor(readonly text: string) {
    this.length = text.length;
    this.first = text.charCodeAt(0);
    // A string's elements are its UTF-16 code units, the units `advance` reads.
    this.fallback = failureTable(text);
  }

  /** The matched length after reading `code`, given `matched` characters of the tag matched before it. */
  advance(matched: number, code: number): number {
    // A complete match restarts: blocks do not overlap.
    if (matched === this.length || matched === 0) return code === this.first ? 1 : 0;
    while (matched > 0 && this.text.charCodeAt(matched) !== code) matched = this.fallback[matched - 1]!;
    return this.text.charCodeAt(matched) === code ? matched + 1 : matched;
  }
}

/** KMP's failure table: entry i is the length of the longest proper prefix of units[0..i] that is also its suffix. */
export function failureTable(units: ArrayLike<string>): Int32Array {
  const fallback = new Int32Array(units.length);
  for (let i = 1, k = 0; i < units.length; i++) {
    while (k > 0 && units[i] !== units[k]) k = fallback[k - 1]!;
    if (units[i] === units[k]) k++;
    fallback[i] = k;
  }
  return fallback;
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
      // With nothing matched, a native search finds the next tag faster than stepping; on a miss,
      // only the last tag.length - 1 characters can hold a partial match, so stepping resumes there.
      // The threshold keeps that from searching again, and keeps tiny chunks from paying for a call.
      if (this.matched === 0 && s.length - i > this.tag.length + SHORT_SPAN) {
        const at = s.indexOf(this.tag.text, i);
        if (at >= 0) return this.found(at + this.tag.length, from);
        i = s.length - this.tag.length + 1;
      }
      this.matched = this.tag.advance(this.matched, s.charCodeAt(i));
      if (this.matched === this.tag.length) return this.found(i + 1, from);
    }
    this.meter.chars += s.length - from;
    return -1;
  }

  /** Whether one character read with nothing matched leaves nothing matched (it cannot start the tag); counted if so. */
  skips(code: number): boolean {
    if (this.matched !== 0 || code === this.tag.first) return false;
    this.meter.chars++;
    return true;
  }

  /** Whether one character extends a partial match without completing the tag (nothing can be emitted yet); counted if so. */
  extends(code: number): boolean {
    const matched = this.matched;
    if (matched === 0 || matched + 1 === this.tag.length || this.tag.text.charCodeAt(matched) !== code) return false;
    this.matched = matched + 1;
    this.meter.chars++;
    return true;
  }

  private found(end: number, from: number): number {
    this.matched = 0;
    this.meter.chars += end - from;
    return end;
  }
}

/** s.indexOf(tag, from), with the span it searched counted as work. */
export function indexOfCounted(s: string, tag: string, from: number, meter: WorkMeter): number {
  const at = s.indexOf(tag, from);
  meter.chars += (at < 0 ? s.length : at + tag.length) - from;
  return at;
}
