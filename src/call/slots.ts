import type { Tool } from '../tools/types.js';
import type { CallRun } from './types.js';

/**
 * Stage 5 of a call: a slot of each of the run's limiters in turn (the run's own limit, then
 * the shared budget). A tool that only waits on other calls (a leaf, `delegates`) takes only
 * the run's own: the shared budget's slots are for the calls it waits on. Resolves with the
 * function that frees them, the last taken first (once only); rejects with the signal's
 * reason if it aborts first, holding none.
 */
export function takeSlots(tool: Pick<Tool, 'delegates'>, run: CallRun): Promise<() => void> {
  const limiters = tool.delegates ? run.limiters.slice(0, 1) : run.limiters;
  const releases: Array<() => void> = [];
  const free = () => {
    for (const release of releases.splice(0).reverse()) release();
  };
  return new Promise((resolve, reject) => {
    const next = (): void => {
      const limiter = limiters[releases.length];
      if (!limiter) return resolve(free);
      limiter.whenFree(
        run.signal,
        (release) => {
          releases.push(release);
          next();
        },
        (reason) => {
          free();
          reject(reason);
        },
      );
    };
    next();
  });
}
