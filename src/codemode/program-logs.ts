/**
 * A program's `console.log` lines, bounded: the first `maxLines` lines while their characters
 * together stay within `maxChars` (a line that would pass it is cut); the rest are counted,
 * and one last line says how many were cut.
 */
export class ProgramLogs {
  readonly #lines: string[] = [];
  #chars = 0;
  #dropped = 0;

  constructor(
    readonly maxLines: number,
    readonly maxChars: number,
  ) {}

  add(line: string): void {
    const room = this.maxChars - this.#chars;
    if (this.#lines.length >= this.maxLines || room <= 0) {
      this.#dropped++;
      return;
    }
    const kept = line.length > room ? `${line.slice(0, room)}… [cut]` : line;
    this.#lines.push(kept);
    this.#chars += Math.min(line.length, room);
  }

  /** The lines kept, and a last line counting those cut. */
  lines(): string[] {
    return this.#dropped === 0 ? [...this.#lines] : [...this.#lines, `[${this.#dropped} more console.log lines cut]`];
  }
}
