// The Chromium benchmarks: serves the production build of bench/browser/pages, launches
// one Chromium (chromium.config.ts settings) and runs each page's `bench.run(options)` in
// turn. Prints `BENCH_RESULT <json>`. `BENCH_PROFILE=<dir>` also writes a CPU profile of
// each page's main thread (Chrome DevTools Protocol) into <dir>.
import { createReadStream, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { chromiumArgs, chromiumExecutable } from '../../chromium.config.js';
import { median, medianUpper95, overRounds, pairedFigure, quantile, spread, type Measurement } from '../lib/stats.js';
import { describeTrace } from './pages/dispatch-trace.js';
import { answerTokens } from './answer-bench.js';
import { conversationsList } from './list-bench.js';
import { imageInputOverhead } from './image-input-bench.js';
import { codemodeCallOverheadWorker } from './codemode-call-bench.js';
import { sharedAttachLatency } from './shared-attach-bench.js';
import { toolResult1mb } from './tool-result-bench.js';
import { chatRoute, isChatRoute } from '../lib/ai-sdk-route.js';
import { answerClock, isClock } from '../lib/server-clock.js';
import { grammarCost, longConversation } from './output-benches.js';
import { coldStart, footprint, mainThreadBusy, resumeLatency, toolLatencyIdle } from './user-benches.js';
import { completions, isCompletions } from '../lib/scripted-model.js';
import type { DispatchOptions, DispatchResult, DispatchRound } from './pages/dispatch.js';
import type { SnapshotOptions, SnapshotRound } from './pages/snapshot.js';

const root = resolve(process.argv[2] ?? 'dist/bench/browser');
const only = process.argv.slice(3);
const profileDir = process.env.BENCH_PROFILE;

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

/** A tiny static server for the built pages (no dev server: timings reflect the minified build). */
function serve(dir: string): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    if (isCompletions(request.method, path)) {
      completions(request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
      return;
    }
    if (isChatRoute(request.method, path)) {
      chatRoute(request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
      return;
    }
    if (isClock(request.method, path)) return answerClock(response);
    const file = join(dir, path);
    if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      // Cross-origin isolation gives performance.now() 5 µs resolution instead of 100 µs.
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    createReadStream(file).pipe(response);
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      done({ server, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
    }),
  );
}

async function openPage(browser: Browser, origin: string, name: string): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.error(`[${name}] page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') console.error(`[${name}] ${message.text()}`);
  });
  await page.goto(`${origin}/${name}.html`);
  await page.waitForFunction(() => window.bench !== undefined, undefined, { timeout: 30_000 });
  return page;
}

/**
 * CPU profiles of a page's main thread and of every worker it starts, over the benchmark
 * (Chrome DevTools Protocol: Profiler on the page session, and on each worker through
 * Target auto-attach, messages relayed with Target.sendMessageToTarget).
 */
async function startProfiling(page: Page): Promise<(name: string) => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  const workers = new Map<string, { url: string; pending: Map<number, (result: unknown) => void> }>();
  let nextId = 1;
  const sendTo = (sessionId: string, method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      workers.get(sessionId)!.pending.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) }).catch(() => resolve(undefined));
    });
  cdp.on('Target.receivedMessageFromTarget', ({ sessionId, message }) => {
    const parsed = JSON.parse(message) as { id?: number; result?: unknown };
    if (parsed.id !== undefined) workers.get(sessionId)?.pending.get(parsed.id)?.(parsed.result);
  });
  cdp.on('Target.attachedToTarget', ({ sessionId, targetInfo }) => {
    workers.set(sessionId, { url: targetInfo.url, pending: new Map() });
    void (async () => {
      await sendTo(sessionId, 'Profiler.enable');
      await sendTo(sessionId, 'Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROFILE_INTERVAL ?? 100) });
      await sendTo(sessionId, 'Profiler.start');
      await sendTo(sessionId, 'Runtime.runIfWaitingForDebugger');
    })();
  });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROFILE_INTERVAL ?? 100) });
  await cdp.send('Profiler.start');
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
  return async (name) => {
    mkdirSync(profileDir!, { recursive: true });
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(join(profileDir!, `${name}.main.cpuprofile`), JSON.stringify(profile));
    for (const [sessionId, worker] of workers) {
      const result = (await sendTo(sessionId, 'Profiler.stop')) as { profile?: unknown } | undefined;
      const label = worker.url
        .split('/')
        .pop()!
        .replace(/-[\w-]{8}\.js$/, '');
      if (result?.profile) writeFileSync(join(profileDir!, `${name}.${label}.${sessionId.slice(0, 6)}.cpuprofile`), JSON.stringify(result.profile));
    }
    await cdp.detach();
  };
}

/** Run the page's benchmark, profiled when BENCH_PROFILE names a directory. */
async function runPage<O, R>(page: Page, options: O, profileName: string): Promise<R> {
  const stop = profileDir ? await startProfiling(page) : undefined;
  const result = (await page.evaluate((o) => window.bench!.run(o as never), options as never)) as R;
  await stop?.(profileName);
  return result;
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

async function workerDispatch(browser: Browser, origin: string): Promise<Measurement[]> {
  const first = await openPage(browser, origin, 'dispatch');
  const options: DispatchOptions = {
    calls: 200,
    rounds: 15,
    warmup: 2,
    workUs: Number(process.env.BENCH_WORK_US ?? 10),
    references: process.env.BENCH_DISPATCH_REFERENCES !== '0',
    ...(process.env.BENCH_DISPATCH_ONLY ? { only: process.env.BENCH_DISPATCH_ONLY } : {}),
    profiled: profileDir !== undefined,
  };
  // Several page loads, each with workers of its own, their rounds pooled: how a launch's threads
  // land on the machine's cores stays the same through a page's rounds and differs from one page to
  // the next, and moved one page's ratios by ±10% against another's. The last one is traced.
  const loads = profileDir !== undefined || options.only ? 1 : Number(process.env.BENCH_DISPATCH_LOADS ?? 6);
  const rounds: DispatchRound[] = [];
  /** Each page load's own ours / Comlink ratio, for the note. */
  const perLoad: number[] = [];
  let trace: DispatchResult['trace'];
  for (let load = 1; load <= loads; load++) {
    const page = load === 1 ? first : await openPage(browser, origin, 'dispatch');
    const result = await runPage<DispatchOptions, DispatchResult>(page, { ...options, traced: load === loads }, 'worker-dispatch');
    await page.close();
    rounds.push(...result.rounds);
    trace = result.trace;
    perLoad.push(median(result.rounds.map((r) => r.ours.mean)) / median(result.rounds.map((r) => r.comlink.mean)));
  }
  const side = (pick: (r: DispatchRound) => number) => rounds.map(pick);
  const ours = side((r) => r.ours.mean);
  const raw = side((r) => r.raw.mean);
  const comlink = side((r) => r.comlink.mean);
  const comlinkChannel = median(side((r) => r.comlinkChannel.mean));
  /** A side's round means at their quartiles: on this VM a round runs either fast or slow (see bench/README.md), and these show how often each. */
  const quartiles = (values: number[]) => [0.25, 0.5, 0.75].map((q) => quantile(values, q).toFixed(0)).join('/');
  const rawWork = median(side((r) => r.rawWork.mean));
  const oneThread = { ours: side((r) => r.oneThread.ours), echo: side((r) => r.oneThread.echo), comlink: side((r) => r.oneThread.comlink) };
  const value = median(ours);
  const rawValue = median(raw);
  const comlinkValue = median(comlink);
  const js = { ours: median(oneThread.ours), echo: median(oneThread.echo) };
  const spreads = (a: number[], b: number[]) =>
    `${options.calls} calls x ${options.rounds} rounds x ${loads} page loads, ±${pct(spread(a))}/±${pct(spread(b))}`;
  return [
    {
      // Information, not a target: this ratio is dominated by how fast this machine wakes a
      // thread (see bench/README.md), which no code of ours controls.
      name: 'worker-dispatch',
      value,
      unit: 'µs/call',
      baseline: 'raw postMessage round trip, worker -> page -> worker, same page and launch',
      baselineValue: rawValue,
      ...overRounds(rounds.map((r) => r.ours.mean / r.raw.mean)),
      target: null,
      note: `${spreads(ours, raw)}; raw with ${options.workUs} µs of work per call in the worker: ${rawWork.toFixed(1)} µs (${(rawWork / rawValue).toFixed(2)}x raw); plain Comlink call ${comlinkValue.toFixed(1)} µs (${(comlinkValue / rawValue).toFixed(2)}x raw), over a MessageChannel port ${comlinkChannel.toFixed(1)} µs; median gap ours ${median(side((r) => r.ours.median)).toFixed(1)} µs, Comlink ${median(side((r) => r.comlink.median)).toFixed(1)} µs; first gap ours ${median(side((r) => r.ours.first)).toFixed(0)} µs, Comlink ${median(side((r) => r.comlink.first)).toFixed(0)} µs; later gaps p90/p99 ours ${median(side((r) => r.ours.p90)).toFixed(0)}/${median(side((r) => r.ours.p99)).toFixed(0)} µs, Comlink ${median(side((r) => r.comlink.p90)).toFixed(0)}/${median(side((r) => r.comlink.p99)).toFixed(0)} µs, their mean less the median ours ${median(side((r) => r.ours.tail)).toFixed(1)} µs, Comlink ${median(side((r) => r.comlink.tail)).toFixed(1)} µs${trace ? `; traced, µs per call: ${describeTrace('ours', trace.ours)}; ${describeTrace('Comlink', trace.comlink)}; ${describeTrace('raw', trace.raw)}; ${describeTrace(`raw + ${options.workUs} µs work`, trace.rawWork)}` : ''}`,
    },
    {
      name: 'worker-dispatch-js',
      value: js.ours,
      unit: 'µs/call',
      baseline: 'bare echo over a MessageChannel on the page thread (no thread to wake)',
      baselineValue: js.echo,
      ...overRounds(oneThread.ours.map((ours, i) => ours / oneThread.echo[i]!)),
      target: '<= 2.0',
      note: `both ends of our wire (runner host + page host) on the page's thread over a MessageChannel; ${spreads(oneThread.ours, oneThread.echo)}; our JavaScript per call, both ends together, about ${(js.ours - js.echo).toFixed(0)} µs; a plain Comlink call over such a channel ${median(oneThread.comlink).toFixed(1)} µs (its JavaScript about ${(median(oneThread.comlink) - js.echo).toFixed(0)} µs)`,
    },
    dispatchCpu(oneThread, spreads),
    {
      // Information: its floor does strictly less than a run's call (no validation, policy, timeout or events).
      name: 'worker-dispatch-vs-comlink',
      value,
      unit: 'µs/call',
      baseline: "plain Comlink call, worker -> page function, on the worker's own channel (as ours), same page and launch",
      baselineValue: comlinkValue,
      ...overRounds(rounds.map((r) => r.ours.mean / r.comlink.mean)),
      target: null,
      note: `${spreads(ours, comlink)}; each page load alone: ${perLoad.map((r) => r.toFixed(2)).join(', ')}; round means p25/p50/p75: ours ${quartiles(ours)} µs, Comlink ${quartiles(comlink)} µs; ${wakeModes(rounds)}; Comlink over a MessageChannel port instead: ${comlinkChannel.toFixed(1)} µs (ours ${(value / comlinkChannel).toFixed(2)}x)`,
    },
  ];
}

/**
 * dispatch-cpu: our JavaScript per call, both ends on one thread (no thread to wake), against a
 * plain Comlink call in the same harness: the ratio of each round's two figures, its median's
 * 95% interval's upper end (the rounds of every page load pooled).
 */
function dispatchCpu(oneThread: { ours: number[]; comlink: number[]; echo: number[] }, spreads: (a: number[], b: number[]) => string): Measurement {
  const ratios = oneThread.ours.map((ours, i) => ours / oneThread.comlink[i]!);
  const upper = medianUpper95(ratios);
  return {
    name: 'dispatch-cpu',
    value: median(oneThread.ours),
    unit: 'µs/call',
    baseline: 'a plain Comlink call over a MessageChannel on the page thread, same harness (no thread to wake)',
    baselineValue: median(oneThread.comlink),
    ratio: upper,
    // The ratio is stricter than the rounds' median (the upper end of its interval); the range is the rounds'.
    range: [Math.min(...ratios), Math.max(...ratios)],
    rounds: ratios.length,
    target: '<= 1.25',
    note: `ratio: the upper end of the 95% bootstrap interval of the median of per-round ratios (median ${median(ratios).toFixed(2)}); ${spreads(oneThread.ours, oneThread.comlink)}; both ends of a page tool's call as a run makes it (runner host + page host, Comlink both ways); a bare echo ${median(oneThread.echo).toFixed(1)} µs`,
  };
}

/**
 * The VM wakes a waiting thread either fast or slow, and a page load's threads tend to stay in
 * one mode: the rounds split at the median raw round trip, ours and Comlink over raw in each half.
 */
function wakeModes(rounds: DispatchRound[]): string {
  const cut = median(rounds.map((r) => r.raw.mean));
  const half = (fast: boolean) => rounds.filter((r) => r.raw.mean <= cut === fast);
  const describe = (label: string, part: DispatchRound[]) => {
    const raw = median(part.map((r) => r.raw.mean));
    return `${label} (raw ${raw.toFixed(0)} µs): ours ${(median(part.map((r) => r.ours.mean)) / raw).toFixed(2)}x raw, Comlink ${(median(part.map((r) => r.comlink.mean)) / raw).toFixed(2)}x raw, ours ${(median(part.map((r) => r.ours.mean)) / median(part.map((r) => r.comlink.mean))).toFixed(2)}x Comlink`;
  };
  return `${describe('fast wakes', half(true))}; ${describe('slow wakes', half(false))}`;
}

async function snapshotIo(browser: Browser, origin: string): Promise<Measurement[]> {
  const page = await openPage(browser, origin, 'snapshot');
  const options: SnapshotOptions = { messages: 1000, rounds: 9, warmup: 2 };
  const rounds = await runPage<SnapshotOptions, SnapshotRound[]>(page, options, 'snapshot-io');
  await page.close();
  const ours = rounds.map((r) => r.ours.save + r.ours.load);
  const raw = rounds.map((r) => r.raw.save + r.raw.load);
  const part = (side: 'ours' | 'raw', op: 'save' | 'load') => median(rounds.map((r) => r[side][op])).toFixed(1);
  return [
    {
      name: 'snapshot-io',
      unit: 'ms (save+load)',
      baseline: 'raw idb: one transaction of 1,000 puts, then getAll of the key range',
      ...pairedFigure(ours, raw),
      target: '<= 1.5',
      note: `save ${part('ours', 'save')} vs ${part('raw', 'save')} ms, load ${part('ours', 'load')} vs ${part('raw', 'load')} ms; ${options.rounds} rounds ±${pct(spread(ours))}/±${pct(spread(raw))}`,
    },
  ];
}

const benches: Record<string, (browser: Browser, origin: string) => Promise<Measurement[]>> = {
  'worker-dispatch': workerDispatch,
  'snapshot-io': snapshotIo,
  'grammar-cost': (b, o) => grammarCost(b, o, openPage, runPage),
  'cold-start': async (b) => {
    // The two apps of bundle-size, built next to the pages (dist/bench/bundle), on a server of their own.
    const bundle = await serve(resolve(root, '../bundle'));
    try {
      return await coldStart(b, bundle.origin);
    } finally {
      bundle.server.close();
    }
  },
  'main-thread-busy': (b, o) => mainThreadBusy(b, o, openPage),
  'tool-latency-idle': (b, o) => toolLatencyIdle(b, o, openPage),
  'resume-latency': (b, o) => resumeLatency(b, o),
  footprint: (b, o) => footprint(b, o, openPage),
  'long-conversation': (b, o) => longConversation(b, o, openPage, runPage),
  'conversations-list': (b, o) => conversationsList(b, o, openPage),
  'answer-100k-tokens': (b, o) => answerTokens(b, o, openPage),
  'image-input-overhead': (b, o) => imageInputOverhead(b, o, openPage),
  'codemode-call-overhead-worker': (b, o) => codemodeCallOverheadWorker(b, o, openPage),
  'shared-attach-latency': (b, o) => sharedAttachLatency(b, o, openPage),
  'tool-result-1mb': (b, o) => toolResult1mb(b, o, openPage),
};

/** How long one benchmark may take before it counts as failed: a page that never answers must not hold the machine. */
const BENCH_MINUTES = 10;

function withinMinutes<T>(minutes: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no result after ${minutes} minutes`)), minutes * 60_000);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

const { server, origin } = await serve(root);
const browser = await chromium.launch({ executablePath: chromiumExecutable, args: chromiumArgs });
let failed = false;
try {
  for (const [name, bench] of Object.entries(benches)) {
    if (only.length > 0 && !only.includes(name)) continue;
    try {
      const results = await withinMinutes(BENCH_MINUTES, bench(browser, origin));
      console.log(`BENCH_RESULT ${JSON.stringify(results)}`);
    } catch (error) {
      failed = true;
      console.error(`BENCH_FAILED ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
