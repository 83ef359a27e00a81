// tool-latency-idle's baseline: after the same idle time, a plain Comlink call of a page function,
// stamped (timeOrigin + now) as it is made; the page stamps it as it arrives.
import * as Comlink from 'comlink';

export interface IdleCaller {
  calls(page: { ping(sentAt: number): void }, rounds: number, idleMs: number): Promise<void>;
}

Comlink.expose({
  async calls(page, rounds, idleMs) {
    for (let i = 0; i < rounds; i++) {
      await new Promise((resolve) => setTimeout(resolve, idleMs));
      await page.ping(performance.timeOrigin + performance.now());
    }
  },
} satisfies IdleCaller);
