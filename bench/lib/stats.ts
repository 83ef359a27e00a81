/** Small, dependency-free statistics for noisy machines: medians, not means. */

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** The value at quantile `q` (0..1) of `values`, by linear interpolation between the nearest two. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = q * (sorted.length - 1);
  const below = Math.floor(at);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (at - below);
}

/** Median absolute deviation relative to the median: a robust spread, shown as ±%. */
export function spread(values: readonly number[]): number {
  const m = median(values);
  return median(values.map((v) => Math.abs(v - m))) / m;
}

export interface PairedOptions {
  /** Rounds run and discarded first (JIT warm-up). */
  warmup: number;
  /** Rounds measured. */
  samples: number;
}

/**
 * Time two async workloads in alternating rounds (A, B, B, A, ...), so drift and other
 * processes' noise hit both alike. Each call returns the time per operation of one round. (No
 * collection is forced between rounds: a full collection shrinks V8's young generation, and the
 * round after it pays for growing it again, which made the parser's rounds 2-4x slower.)
 */
export async function paired(a: () => Promise<number>, b: () => Promise<number>, { warmup, samples }: PairedOptions): Promise<{ a: number[]; b: number[] }> {
  for (let i = 0; i < warmup; i++) {
    await a();
    await b();
  }
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < samples; i++) {
    if (i % 2 === 0) {
      as.push(await a());
      bs.push(await b());
    } else {
      bs.push(await b());
      as.push(await a());
    }
  }
  return { a: as, b: bs };
}

/** One benchmark figure as bench/run.mjs collects it (ratio, target and `met` are added there). */
export interface Measurement {
  name: string;
  value: number;
  unit: string;
  baseline: string;
  baselineValue: number;
  /** value / baselineValue unless stated otherwise. */
  ratio: number;
  /** `<= x` or `>= x`; `null`: a figure shown for information, judged against nothing. */
  target: string | null;
  /** The lowest and highest ratio of the figure's rounds, whose median `ratio` is; absent for a figure measured once (a size). */
  range?: [number, number];
  /** How many rounds `ratio` and `range` are of. */
  rounds?: number;
  /** Shown in the table's notes column and kept out of the JSON. */
  note?: string;
}

/** A figure's ratio over its rounds: their median, the lowest and the highest, and how many. */
export type RoundRatios = Pick<Measurement, 'ratio' | 'range' | 'rounds'>;

/** The median, range and count of per-round ratios. */
export function overRounds(ratios: readonly number[]): RoundRatios {
  return { ratio: median(ratios), range: [Math.min(...ratios), Math.max(...ratios)], rounds: ratios.length };
}

/**
 * A figure whose rounds each time ours (`a[i]`) and the baseline (`b[i]`) together: the median of
 * each side, and the median and range of the rounds' ratios (`ratioOf`, by default a / b).
 */
export function pairedFigure(
  a: readonly number[],
  b: readonly number[],
  ratioOf: (ours: number, baseline: number) => number = (x, y) => x / y,
): Pick<Measurement, 'value' | 'baselineValue'> & RoundRatios {
  if (a.length !== b.length || a.length === 0) throw new Error(`pairedFigure: ${a.length} rounds of ours, ${b.length} of the baseline`);
  return { value: median(a), baselineValue: median(b), ...overRounds(a.map((x, i) => ratioOf(x, b[i]!))) };
}

/** A budget's figure (no baseline): the median of its rounds' values, and their range. */
export function budgetFigure(values: readonly number[]): Pick<Measurement, 'value' | 'baselineValue'> & RoundRatios {
  return { value: median(values), baselineValue: Number.NaN, ...overRounds(values) };
}

/**
 * The upper end of a 95% bootstrap interval of the median of `values` (2,000 resamples, a fixed
 * seed so one set of rounds always gives one answer): what a ratio measured round by round is at
 * most, allowing for which rounds happened to be drawn.
 */
export function medianUpper95(values: readonly number[]): number {
  let seed = 0x9e3779b9;
  const random = () => {
    // xorshift32: small, seeded, good enough for resampling.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const medians: number[] = [];
  for (let i = 0; i < 2000; i++) medians.push(median(values.map(() => values[Math.floor(random() * values.length)]!)));
  return quantile(medians, 0.975);
}
