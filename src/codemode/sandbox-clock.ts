/**
 * The time a program has run in the sandbox: the sum of the stretches the host spends inside
 * QuickJS (evaluating, running jobs, settling calls), not the time it waits for tool calls.
 * QuickJS asks `expired()` every few thousand instructions, so a tight loop stops too.
 */
export class SandboxClock {
  #used = 0;
  #since: number | undefined;

  constructor(readonly timeoutMs: number) {}

  /** Run `step` as a stretch of sandbox time. */
  run<T>(step: () => T): T {
    this.#since = performance.now();
    try {
      return step();
    } finally {
      this.#used += performance.now() - this.#since;
      this.#since = undefined;
    }
  }

  /** The sandbox time used so far, the current stretch included. */
  get used(): number {
    return this.#used + (this.#since === undefined ? 0 : performance.now() - this.#since);
  }

  /** True once the program has run past its deadline. */
  expired(): boolean {
    return this.used > this.timeoutMs;
  }
}
