import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, createWorkerRunner, scriptedEngine, type Run } from '../../src/index.js';

/** A model reply of about `megabytes` MB: prose with bracket noise that the tag scanner must inspect. */
function hugeReply(megabytes: number): string {
  const line = 'The [quarterly] numbers [TOOL look fine; see [/ref] and [TOOL_CALLS] notes.\n';
  return line.repeat(Math.ceil((megabytes * 1024 * 1024) / line.length));
}

/** The longest pause, in ms, of the page's event loop while `work` runs (a chain of zero-delay timers). */
async function longestPause(work: () => Promise<unknown>): Promise<{ longest: number; ticks: number }> {
  let running = true;
  let last = performance.now();
  let longest = 0;
  let ticks = 0;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    ticks++;
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  await work();
  running = false;
  longest = Math.max(longest, performance.now() - last); // a loop that never turned paused for the whole run
  return { longest, ticks };
}

const settle = (run: Run) => run.result.then((r) => r.text.length);

describe('page responsiveness', () => {
  it('keeps the page event loop turning while the runner worker takes a multi-megabyte reply', async () => {
    const reply = hugeReply(8);
    const runner = createWorkerRunner({ engine: scriptedEngine([reply]) });
    await settle(runner.run('warm up')).catch(() => 0); // the script has one reply: this run consumes it
    const warm = createWorkerRunner({ engine: scriptedEngine([reply]) });
    const inWorker = await longestPause(() => settle(warm.run('summarise')));
    runner.close();
    warm.close();

    const agent = await Agent.make(scriptedEngine([reply]));
    const inPage = await longestPause(() => settle(new ChatRunner().run(agent, 'summarise')));

    console.log(
      `longest page pause: worker run ${inWorker.longest.toFixed(1)} ms over ${inWorker.ticks} ticks; in-page run ${inPage.longest.toFixed(1)} ms over ${inPage.ticks} ticks`,
    );
    expect(inWorker.ticks).toBeGreaterThan(1);
    // Compared with the same work done on the page, in the same run: no absolute threshold.
    expect(inWorker.longest).toBeLessThan(inPage.longest);
  });
});
