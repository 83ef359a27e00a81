// The driver's side of the benchmarks of what a person using an app feels: cold start, the page's
// main thread during a run, a page tool's latency after idle, a resume after a reload. Each opens
// its pages in the one Chromium the driver launched and turns what they measured into Measurements.
import type { Browser } from 'playwright';
import { budgetFigure, median, pairedFigure, quantile, spread, type Measurement } from '../lib/stats.js';
import type { OpenPage } from './output-benches.js';
import type { BusyOptions, BusyResult } from './pages/busy.js';
import type { LatencyOptions, LatencyResult } from './pages/latency.js';
import type { ResumeState } from './pages/resume.js';
import type { FootprintResult } from './pages/footprint.js';
import { mainThreadTasks } from './main-thread-trace.js';

const pct = (value: number) => `${(value * 100).toFixed(0)}%`;

/**
 * cold-start-default, cold-start-no-eval: ms from `createWorkerRunner` (the app's mark `app-start`,
 * just before it) to the first answer shown (`app-answer`), the question asked as the page loads,
 * each load in a fresh browser context (nothing cached: the server says no-store), against the
 * same app on the AI SDK with its loop in a Comlink worker (from `new Worker` to the answer).
 * The apps are bench/bundle/ours (index.html: default validation; no-eval.html) and bench/bundle/theirs.
 */
export async function coldStart(browser: Browser, bundleOrigin: string): Promise<Measurement[]> {
  const apps = { default: 'ours/index.html', noEval: 'ours-no-eval/no-eval.html', theirs: 'theirs/index.html' } as const;
  const times: Record<keyof typeof apps, number[]> = { default: [], noEval: [], theirs: [] };
  const order = Object.keys(apps) as Array<keyof typeof apps>;
  const warmup = 2;
  const rounds = 11;
  for (let i = 0; i < warmup + rounds; i++) {
    for (const app of i % 2 ? [...order].reverse() : order) {
      const ms = await firstAnswer(browser, `${bundleOrigin}/${apps[app]}?ask=${encodeURIComponent('What is the title of this page?')}`);
      if (i >= warmup) times[app].push(ms);
    }
  }
  const figure = (name: string, side: number[], validation: string): Measurement => ({
    name,
    unit: 'ms',
    baseline: 'the same app on the AI SDK (ai@7, @ai-sdk/openai-compatible, zod) with its loop in a Comlink worker: new Worker to the answer',
    // Each round loads the three apps one after another: a round's two loads are its pair.
    ...pairedFigure(side, times.theirs),
    target: '<= 1.2',
    note: `createWorkerRunner (${validation}) to the first answer with a page tool (one call of read_title, then the answer, from a scripted OpenAI-compatible endpoint on the same server), each in a fresh context; ${rounds} rounds ±${pct(spread(side))}/±${pct(spread(times.theirs))}`,
  });
  return [figure('cold-start-default', times.default, "default validation, 'auto'"), figure('cold-start-no-eval', times.noEval, "validation: 'no-eval'")];
}

async function firstAnswer(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`[cold-start] page error: ${error.message}`));
    await page.goto(url);
    await page.waitForFunction(() => performance.getEntriesByName('app-answer').length > 0, undefined, { timeout: 30_000 });
    return await page.evaluate(() => performance.getEntriesByName('app-answer')[0]!.startTime - performance.getEntriesByName('app-start')[0]!.startTime);
  } finally {
    await context.close();
  }
}

/**
 * main-thread-busy: the page's main-thread busy time (its tasks between the run's start and end,
 * from a Chromium trace) per run of the busy script (200 KB reply in 4-character deltas, 20 page-tool
 * calls), the loop in the runner worker, against the same loop on the page. Each run in a fresh page.
 */
export async function mainThreadBusy(browser: Browser, origin: string, openPage: OpenPage): Promise<Measurement[]> {
  const results: Record<BusyOptions['mode'], Array<ReturnType<typeof mainThreadTasks> & { runMs: number }>> = { worker: [], page: [] };
  const modes: Array<BusyOptions['mode']> = ['worker', 'page', 'page', 'worker', 'worker', 'page', 'page', 'worker', 'worker', 'page'];
  for (const mode of modes) {
    const page = await openPage(browser, origin, 'busy');
    await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing', 'devtools.timeline'] });
    const result = (await page.evaluate((o) => window.bench!.run(o as never), { mode } as never)) as BusyResult;
    const trace = await browser.stopTracing();
    await page.close();
    results[mode].push({ ...mainThreadTasks(trace), runMs: result.runMs });
  }
  const busy = (mode: BusyOptions['mode']) => results[mode].map((r) => r.busyMs);
  const longest = budgetFigure(results.worker.map((r) => r.longestMs));
  const describe = (mode: BusyOptions['mode']) =>
    `${mode === 'worker' ? 'worker' : 'in-page'}: busy ${results[mode].map((r) => r.busyMs.toFixed(0)).join('/')} ms in ${median(results[mode].map((r) => r.tasks)).toFixed(0)} tasks, longest ${Math.max(...results[mode].map((r) => r.longestMs)).toFixed(1)} ms, run ${median(results[mode].map((r) => r.runMs)).toFixed(0)} ms`;
  return [
    {
      name: 'main-thread-busy',
      unit: 'ms busy/run',
      baseline: 'the same run with the loop on the page (Agent + ChatRunner), same page',
      // The runs alternate worker and page: the i-th of each is a pair.
      ...pairedFigure(busy('worker'), busy('page')),
      target: '<= 0.2',
      note: `the page's main-thread tasks during a run (Chromium trace); ${describe('worker')}; ${describe('page')}`,
    },
    {
      name: 'main-thread-longest-task',
      unit: 'ms',
      baseline: 'none: a budget (one frame at 60 Hz)',
      ...longest,
      target: '<= 16',
      note: `the longest task on the page while the runner worker runs the busy script, the median of its ${results.worker.length} runs (their longest ${longest.range![1].toFixed(1)} ms)`,
    },
  ];
}

/**
 * tool-latency-idle: after 100 ms of idle threads, the 95th percentile of the time from the model's
 * call reaching the worker that runs the loop to the page tool starting: ours (the runner worker)
 * against the AI SDK app's worker on the same path, the three sides taking turns in each page load;
 * a load is a round (its two p95s, and their ratio). Information: ours against a plain Comlink call
 * of a page function after the same idle, as a difference (ms): the floor does none of a loop's work.
 */
export async function toolLatencyIdle(browser: Browser, origin: string, openPage: OpenPage): Promise<Measurement[]> {
  const loads: LatencyResult[] = [];
  for (let load = 0; load < LATENCY_LOADS; load++) {
    const page = await openPage(browser, origin, 'latency');
    const options: LatencyOptions = { rounds: 30, warmup: 3, idleMs: 100 };
    loads.push((await page.evaluate((o) => window.bench!.run(o as never), options as never)) as LatencyResult);
    await page.close();
  }
  const p95 = (values: number[]) => quantile(values, 0.95);
  const side = (name: keyof LatencyResult) => loads.map((load) => p95(load[name]));
  const all = (name: keyof LatencyResult) => loads.flatMap((load) => load[name]);
  const calls = `${loads[0]!.ours.length} calls of each side in each of ${LATENCY_LOADS} page loads, 100 ms idle before each`;
  const medians = `medians of all calls: ours ${median(all('ours')).toFixed(2)} ms, the AI SDK app ${median(all('theirs')).toFixed(2)} ms, a plain Comlink call ${median(all('comlink')).toFixed(2)} ms`;
  const difference = (ours: number, baseline: number) => ours - baseline;
  return [
    {
      name: 'tool-latency-idle',
      unit: 'ms (p95)',
      baseline: "the AI SDK app's worker (bench/bundle/theirs: streamText, @ai-sdk/openai-compatible, zod) on the same path, call bytes to the page tool, p95",
      ...pairedFigure(side('ours'), side('theirs')),
      target: '<= 0.5',
      note: `value and baseline: the median over page loads of each load's p95; ${calls}; ${medians}; both read the model's SSE stream, decode and check the call and call the page function over Comlink`,
    },
    {
      name: 'tool-latency-idle-comlink',
      unit: 'ms (p95)',
      baseline: 'a plain Comlink call of a page function from a worker, after the same idle time, p95',
      ...pairedFigure(side('ours'), side('comlink'), difference),
      target: null,
      note: `information: ratio column ours' p95 less the Comlink call's, ms; the floor of a page function called from a worker after idle, without a model's reply to read; ${calls}`,
    },
  ];
}

/** Page loads of tool-latency-idle, each a round of its figure. */
const LATENCY_LOADS = 4;

/**
 * resume-latency: ms from a reload's navigation start to the approval asked again (runner.resume
 * in the reloaded page), against a fresh run's first event on a page load of its own.
 */
export async function resumeLatency(browser: Browser, origin: string): Promise<Measurement[]> {
  const resumed: number[] = [];
  const fresh: number[] = [];
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`[resume] page error: ${error.message}`));
    /** Open `url`, or, with `reload`, make it the page's address and reload (a reload, unlike a navigation, never keeps the old page alive in the back-forward cache). */
    const state = async (url: string, wanted: ResumeState['state'], reload = false): Promise<ResumeState> => {
      if (reload) {
        await page.evaluate((address) => history.replaceState(null, '', address), url);
        await page.reload();
      } else await page.goto(url);
      await page.waitForFunction(() => window.resumeBench !== undefined, undefined, { timeout: 30_000 });
      const got = (await page.evaluate(() => window.resumeBench)) as ResumeState;
      if (got.state !== wanted) throw new Error(`resume-latency: ${url} ended ${got.state}: ${got.error ?? ''}`);
      return got;
    };
    for (let i = 0; i < 13; i++) {
      await state(`${origin}/resume.html?phase=ask&c=r${i}`, 'asked');
      const again = await state(`${origin}/resume.html?phase=resume&c=r${i}`, 'done', true);
      const first = await state(`${origin}/resume.html?phase=fresh&c=f${i}`, 'done');
      if (i >= 2) {
        resumed.push(again.ms!);
        fresh.push(first.ms!);
      }
    }
  } finally {
    await context.close();
  }
  return [
    {
      name: 'resume-latency',
      unit: 'ms from navigation start',
      baseline: "a fresh run's first event on a page load of its own (same page, same IndexedDB database)",
      ...pairedFigure(resumed, fresh),
      target: '<= 1.5',
      note: `a page reloaded while its run waits for approval, to approval_requested from runner.resume (the card shown again); 11 rounds ±${pct(spread(resumed))}/±${pct(spread(fresh))}`,
    },
  ];
}

/** Information: IndexedDB bytes per stored message (bench/browser/pages/footprint.ts), median of 3 page loads. */
export async function footprint(browser: Browser, origin: string, openPage: OpenPage): Promise<Measurement[]> {
  const results: FootprintResult[] = [];
  for (let i = 0; i < 3; i++) {
    const page = await openPage(browser, origin, 'footprint');
    results.push((await page.evaluate(() => window.bench!.run({} as never))) as FootprintResult);
    await page.close();
  }
  return [
    {
      name: 'indexeddb-bytes-per-message',
      unit: 'bytes',
      baseline: 'none: information',
      ...budgetFigure(results.map((r) => r.storedMessage)),
      target: null,
      note: `navigator.storage.estimate() before and after 1,000 stored messages (a question, a call, its result, an answer, repeated; about 150-400 characters each); 3 page loads: ${results.map((r) => r.storedMessage.toFixed(0)).join('/')} bytes`,
    },
  ];
}
