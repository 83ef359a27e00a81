import type { RunUsage, Usage } from '../core/types.js';
import { USAGE_DETAILS } from './request-usage.js';

/**
 * Sums the `usage` of model requests: a run's own total (for `RunResult.usage`), or the total a
 * run and its leaves share, which holds the run's token budget (`maxTokens`). Counts saturate at
 * `Number.MAX_SAFE_INTEGER`: a server cannot make a sum lose its meaning.
 */
export class UsageMeter {
  #promptTokens = 0;
  #completionTokens = 0;
  #totalTokens = 0;
  #requests = 0;
  #estimated = false;
  /** Cache and reasoning counts, summed over the requests that reported them. */
  readonly #details: Partial<Record<(typeof USAGE_DETAILS)[number], number>> = {};

  constructor(
    /** Past this many tokens in all, no further model request is made (see `exceeded`). */
    readonly maxTokens?: number,
  ) {}

  /** Count one model request's usage (a count that is not a whole number >= 0 counts as 0: whoever emitted it). */
  add(usage: Usage): void {
    this.#promptTokens = sum(this.#promptTokens, usage.promptTokens);
    this.#completionTokens = sum(this.#completionTokens, usage.completionTokens);
    this.#totalTokens = sum(this.#totalTokens, usage.totalTokens);
    this.#requests++;
    if (usage.estimated) this.#estimated = true;
    for (const detail of USAGE_DETAILS) if (usage[detail] !== undefined) this.#details[detail] = sum(this.#details[detail] ?? 0, usage[detail]);
  }

  /** The sum so far; undefined before any request answered. */
  total(): RunUsage | undefined {
    if (this.#requests === 0) return undefined;
    const total: RunUsage = {
      promptTokens: this.#promptTokens,
      completionTokens: this.#completionTokens,
      totalTokens: this.#totalTokens,
      requests: this.#requests,
      ...this.#details,
    };
    if (this.#estimated) total.estimated = true;
    return total;
  }

  /** The tokens used so far, if they passed `maxTokens`. */
  exceeded(): number | undefined {
    return this.maxTokens !== undefined && this.#totalTokens > this.maxTokens ? this.#totalTokens : undefined;
  }
}

function sum(a: number, b: unknown): number {
  return Number.isSafeInteger(b) && (b as number) > 0 ? Math.min(a + (b as number), Number.MAX_SAFE_INTEGER) : a;
}
