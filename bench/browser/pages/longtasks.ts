// main-thread-long-tasks: long tasks (> 50 ms, the Long Tasks API) on the page while a run
// streams a 5 MB scripted reply, the page reading every event as an app would. `worker`:
// the loop in the runner worker (createWorkerRunner); `page`: the same loop on the page
// (Agent + ChatRunner), the baseline that shows what moving the loop off the page buys.
import { Agent, ChatRunner, scriptedEngine, type Run } from '../../../src/index.js';
import { createWorkerRunner } from '../../../src/worker/index.js';
import { expose } from './expose.js';

export interface LongTaskOptions {
  mode: 'worker' | 'page';
  bytes: number;
}

export interface LongTaskResult {
  mode: LongTaskOptions['mode'];
  count: number;
  totalMs: number;
  longestMs: number;
  runMs: number;
  tasks: Array<{ start: number; duration: number }>;
}

/** Prose with no tool calls, `bytes` long. */
function prose(bytes: number): string {
  const line = 'The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs.\n';
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

expose<LongTaskOptions, LongTaskResult>({
  async run({ mode, bytes }) {
    const reply = prose(bytes);
    const engine = scriptedEngine([reply]);
    // Setup (building the reply, posting the config to the worker, starting it) is outside the window.
    let start: () => Run;
    if (mode === 'worker') {
      const runner = createWorkerRunner({ engine });
      start = () => runner.run('Tell me everything');
    } else {
      const agent = await Agent.make(engine);
      const runner = new ChatRunner();
      start = () => runner.run(agent, 'Tell me everything');
    }
    await nextFrame();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const tasks: Array<{ start: number; duration: number }> = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push({ start: entry.startTime, duration: entry.duration });
    });
    observer.observe({ type: 'longtask' });
    const t0 = performance.now();
    const run = start();
    let chars = 0;
    for await (const event of run.events) if (event.type === 'text_delta') chars += event.text.length;
    const result = await run.result;
    const runMs = performance.now() - t0;
    // Long-task entries arrive after their task ends: let a frame and a task pass.
    await nextFrame();
    await nextFrame();
    observer.disconnect();
    if (chars !== reply.length || result.text.length !== reply.trim().length) {
      throw new Error(`${mode}: got ${chars} streamed characters and a ${result.text.length}-character result for a ${reply.length}-character reply`);
    }
    // The task that starts the run began just before t0: keep every task that ended after t0.
    const inRun = tasks.filter((task) => task.start + task.duration > t0);
    return {
      mode,
      count: inRun.length,
      totalMs: inRun.reduce((sum, task) => sum + task.duration, 0),
      longestMs: Math.max(0, ...inRun.map((task) => task.duration)),
      runMs,
      tasks: inRun.map((task) => ({ start: task.start - t0, duration: task.duration })),
    };
  },
});
