/** What a bench page offers the driver: `window.bench.run(options)` resolves with plain data. */
export interface BenchPage<O, R> {
  run(options: O): Promise<R>;
}

declare global {
  interface Window {
    bench?: BenchPage<never, unknown>;
  }
}

export function expose<O, R>(page: BenchPage<O, R>): void {
  window.bench = page as BenchPage<never, unknown>;
}

/** Per-interval time of a series of timestamps, robust to a stray slow one: the median gap. */
export function medianGap(stamps: readonly number[]): number {
  const gaps: number[] = [];
  for (let i = 1; i < stamps.length; i++) gaps.push(stamps[i]! - stamps[i - 1]!);
  gaps.sort((a, b) => a - b);
  const mid = gaps.length >> 1;
  return gaps.length % 2 ? gaps[mid]! : (gaps[mid - 1]! + gaps[mid]!) / 2;
}

/** Mean time per interval from first to last timestamp. */
export function meanGap(stamps: readonly number[]): number {
  return (stamps[stamps.length - 1]! - stamps[0]!) / (stamps.length - 1);
}
