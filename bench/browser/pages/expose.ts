import { median } from '../../lib/stats.js';

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
  return median(stamps.slice(1).map((stamp, i) => stamp - stamps[i]!));
}

/** Mean time per interval from first to last timestamp. */
export function meanGap(stamps: readonly number[]): number {
  return (stamps[stamps.length - 1]! - stamps[0]!) / (stamps.length - 1);
}
