// worker-dispatch: the steady-state cost of one main-thread tool call made by the runner
// worker, against a raw postMessage round trip (worker asks, page answers) in the same page.
// Both are timed the same way: the page stamps each call as it arrives; the time per call
// is the gap between consecutive calls (at concurrency 1 a call starts only once the
// previous one's result is back in the worker), so setup and teardown are left out.
import * as Comlink from 'comlink';
import { createWorkerRunner, scriptedEngine } from '../../../src/worker/index.js';
import { pingScript, pingTool } from '../../lib/ping.js';
import { serveCall, servedTool } from '../../../src/call/serve.js';
import { toDescriptor } from '../../../src/worker/wire/descriptor.js';
import { PageHost } from '../../../src/worker/page/page-host.js';
import { registerTransferHandlers } from '../../../src/worker/wire/transfer-handlers.js';
import { exposeRunnerHost } from '../../../src/worker/runner/runner-host.js';
import type { RunnerWorkerApi, ToolInvoker } from '../../../src/worker/wire/protocol.js';
import { breakDown, meanTrace, type LoopTrace } from './dispatch-trace.js';
import { expose, meanGap, medianGap } from './expose.js';
import { traceTarget } from './session-trace.js';

export interface DispatchOptions {
  calls: number;
  rounds: number;
  warmup: number;
  /** Busy time per call, in µs, of the `rawWork` reference: what that much work costs a raw round trip. */
  workUs: number;
  /** Reference loops timed next to ours (default: all); a profile of ours alone leaves them out. */
  references?: boolean;
  /** Run the traced copies after the timed rounds (default true; the driver traces one page load of several). */
  traced?: boolean;
  /** Traced runs of each loop, their breakdowns averaged (default 4). */
  tracedRuns?: number;
  /** Scratch: time only this loop (a profile of it alone). */
  only?: string;
  /** Profiled: the runner stays open, as a closed worker's profile cannot be collected. */
  profiled?: boolean;
}

/** Time per call of one round, µs: from the first to the last stamp, and the median gap. */
export interface Gaps {
  mean: number;
  median: number;
  /** The first gap: what the run does before its second call (the reply's other calls queued) shows here. */
  first: number;
  /** The 90th and 99th percentile gaps, and the mean of the gaps after the first less the median: what the slow ones add to each call. */
  p90: number;
  p99: number;
  tail: number;
}

export interface DispatchRound {
  ours: Gaps;
  raw: Gaps;
  /** The raw loop with `workUs` of busy time in the worker before each ask. */
  rawWork: Gaps;
  /** A plain Comlink call on the worker's own channel (the transport ours uses). */
  comlink: Gaps;
  /** A plain Comlink call over a MessageChannel port. */
  comlinkChannel: Gaps;
  /**
   * Both ends on this thread, over one MessageChannel: the runner's host and the page's port
   * as the runner worker and the page have them, against a bare echo over such a channel. No
   * thread wakes, so the difference is our JavaScript per call, both ends together.
   */
  oneThread: { ours: number; echo: number; comlink: number };
}

export interface DispatchTrace {
  ours: LoopTrace;
  /** The plain Comlink call on the worker's own channel: its requests are `APPLY` messages, its answers `RAW`. */
  comlink: LoopTrace;
  raw: LoopTrace;
  rawWork: LoopTrace;
}

/** The timed rounds, then the breakdown of one traced run of each loop (left out of a profile of ours alone). */
export interface DispatchResult {
  rounds: DispatchRound[];
  trace: DispatchTrace | undefined;
}

function gaps(stamps: number[]): Gaps {
  const sorted = stamps
    .slice(2)
    .map((stamp, i) => (stamp - stamps[i + 1]!) * 1000)
    .sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const median = medianGap(stamps) * 1000;
  const rest = sorted.reduce((sum, gap) => sum + gap, 0) / sorted.length;
  return { mean: meanGap(stamps) * 1000, median, first: (stamps[1]! - stamps[0]!) * 1000, p90: at(0.9), p99: at(0.99), tail: rest - median };
}

function oursRunner(options: DispatchOptions, worker?: () => Worker) {
  const stamps: number[] = [];
  const ping = pingTool(stamps);
  const replies = pingScript(options.calls, options.warmup + options.rounds);
  const runner = createWorkerRunner({ engine: scriptedEngine(replies), concurrency: 1, ...(worker ? { worker } : {}) }).tool(ping);
  const measure = async () => {
    stamps.length = 0;
    // One reply holds every call: lift the per-reply cap (maxCallsPerReply, default 16) to it.
    const run = runner.run('ping them all', { maxCallsPerReply: options.calls });
    let finished = 0;
    for await (const event of run.events) if (event.type === 'tool_finished') finished++;
    const result = await run.result;
    if (finished !== options.calls || result.toolResults.length !== options.calls || !result.toolResults.every((r) => r.ok)) {
      const failure = result.toolResults.find((r) => !r.ok);
      throw new Error(`ours: ${finished} tool_finished events, ${result.toolResults.length} results${failure ? `, e.g. ${JSON.stringify(failure)}` : ''}`);
    }
    return gaps(stamps);
  };
  return Object.assign(measure, { close: () => runner.close() });
}

function rawLoop(options: DispatchOptions, workUs = 0, worker = new Worker(new URL('./echo.worker.ts', import.meta.url), { type: 'module' })) {
  // Set now, so its listener comes before anything added after this returns (a tracer's last one).
  worker.onmessage = () => {};
  return () =>
    new Promise<Gaps>((resolve) => {
      const stamps: number[] = [];
      worker.onmessage = (event: MessageEvent<{ type: 'call'; id: number; args: unknown } | { type: 'done' }>) => {
        const message = event.data;
        if (message.type === 'done') return resolve(gaps(stamps));
        stamps.push(performance.now());
        worker.postMessage({ type: 'reply', id: message.id, ok: true, output: 'pong' });
      };
      worker.postMessage({ type: 'start', n: options.calls, workUs });
    });
}

/** A plain Comlink call over the worker's own channel (the page exposes `ping` on the Worker object). */
function comlinkDirectLoop(options: DispatchOptions, worker = new Worker(new URL('./comlink-direct.worker.ts', import.meta.url), { type: 'module' })) {
  let stamps: number[] = [];
  let finished = () => {};
  // `finish` resolves on a task of its own, once its answer is posted: a traced run then ends with every message of its own logged.
  Comlink.expose({ ping: () => (stamps.push(performance.now()), 'pong'), finish: () => void setTimeout(finished) }, worker);
  return () =>
    new Promise<Gaps>((resolve) => {
      stamps = [];
      finished = () => resolve(gaps(stamps));
      worker.postMessage({ type: 'start', n: options.calls });
    });
}

/** A plain Comlink call over a MessageChannel port handed to the worker. */
function comlinkLoop(options: DispatchOptions) {
  const worker = new Worker(new URL('./comlink.worker.ts', import.meta.url), { type: 'module' });
  return () =>
    new Promise<Gaps>((resolve) => {
      const stamps: number[] = [];
      const { port1, port2 } = new MessageChannel();
      Comlink.expose({ ping: () => (stamps.push(performance.now()), 'pong') }, port1);
      worker.onmessage = () => {
        port1.close();
        resolve(gaps(stamps));
      };
      worker.postMessage({ n: options.calls, port: port2 }, [port2]);
    });
}

/** The wire's two ends on this thread: the runner host (worker side) and the page host serving `ping`, Comlink both ways. */
async function oursOneThread(options: DispatchOptions) {
  const { port1, port2 } = new MessageChannel();
  const stamps: number[] = [];
  const ping = pingTool(stamps);
  registerTransferHandlers();
  exposeRunnerHost(port1);
  let ended!: () => void;
  const pingServed = servedTool(ping);
  const served = new Map<string, ToolInvoker>([
    ['ping', { call: (args, ctx, abort) => serveCall(pingServed, args, ctx, abort), needsApproval: async () => false }],
  ]);
  const pageHost = new PageHost(served, (_runId, events) => events === null && ended(), true);
  pageHost.serve(port2);
  const host = Comlink.wrap<RunnerWorkerApi>(port2);
  const replies = pingScript(options.calls, options.warmup + options.rounds);
  await host.configure({ engine: scriptedEngine(replies), concurrency: 1 });
  await host.registerTools([toDescriptor(ping)]);
  let run = 0;
  return () =>
    new Promise<number>((resolve) => {
      stamps.length = 0;
      ended = () => resolve(meanGap(stamps) * 1000);
      void host.startRun(`one-thread-${run++}`, 'ping them all', { maxCallsPerReply: options.calls });
    });
}

/** A bare echo over a MessageChannel on this thread, timed the same way. */
function echoOneThread(options: DispatchOptions) {
  const { port1, port2 } = new MessageChannel();
  port2.onmessage = (event: MessageEvent<{ id: number }>) => port2.postMessage({ type: 'reply', id: event.data.id, ok: true, output: 'pong' });
  return () =>
    new Promise<number>((resolve) => {
      const stamps: number[] = [];
      let left = options.calls;
      port1.onmessage = () => {
        stamps.push(performance.now());
        if (--left > 0) port1.postMessage({ type: 'call', id: left, name: 'ping', args: {} });
        else resolve(meanGap(stamps) * 1000);
      };
      port1.postMessage({ type: 'call', id: left, name: 'ping', args: {} });
    });
}

/** A plain Comlink call over a MessageChannel on this thread, timed the same way. */
function comlinkOneThread(options: DispatchOptions) {
  const { port1, port2 } = new MessageChannel();
  let stamps: number[] = [];
  Comlink.expose({ ping: () => (stamps.push(performance.now()), 'pong') }, port1);
  const remote = Comlink.wrap<{ ping(args: unknown): Promise<string> }>(port2);
  return async () => {
    stamps = [];
    for (let i = 0; i < options.calls; i++) await remote.ping({});
    return meanGap(stamps) * 1000;
  };
}

/**
 * Traced runs of ours, of the plain Comlink call and of the raw loop with and without work
 * (dispatch-trace.ts), after a warm-up run of each: `runs` of each in turn, their breakdowns
 * averaged (one run alone moves by tens of µs a leg with the machine's load).
 */
async function traced(options: DispatchOptions, runs: number): Promise<DispatchTrace> {
  // Each worker made where its URL is written out: only `new Worker(new URL(...))` gets its script bundled.
  const contender = (make: (worker: Worker) => () => Promise<unknown>, worker: Worker, request: string, answer: string) => {
    const tracer = traceTarget(worker);
    const run = make(worker);
    tracer.last();
    const once = async () => {
      tracer.log.length = 0;
      await tracer.collect();
      await run();
      const page = tracer.log.splice(0);
      return breakDown(page, await tracer.collect(), request, answer);
    };
    return { warm: run, once, worker };
  };
  let runner: ReturnType<typeof oursRunner> | undefined;
  const contenders = {
    ours: contender(
      (worker) => (runner = oursRunner({ ...options, warmup: 0, rounds: runs + 1 }, () => worker)),
      new Worker(new URL('./traced-runner.worker.ts', import.meta.url), { type: 'module' }),
      'call',
      'done',
    ),
    comlink: contender(
      (worker) => comlinkDirectLoop(options, worker),
      new Worker(new URL('./traced-comlink-direct.worker.ts', import.meta.url), { type: 'module' }),
      'APPLY',
      'RAW',
    ),
    raw: contender(
      (worker) => rawLoop(options, 0, worker),
      new Worker(new URL('./traced-echo.worker.ts', import.meta.url), { type: 'module' }),
      'call',
      'reply',
    ),
    rawWork: contender(
      (worker) => rawLoop(options, options.workUs, worker),
      new Worker(new URL('./traced-echo.worker.ts', import.meta.url), { type: 'module' }),
      'call',
      'reply',
    ),
  };
  const names = Object.keys(contenders) as Array<keyof typeof contenders>;
  const traces: Record<keyof typeof contenders, LoopTrace[]> = { ours: [], comlink: [], raw: [], rawWork: [] };
  for (const name of names) await contenders[name].warm();
  for (let i = 0; i < runs; i++) for (const name of i % 2 ? [...names].reverse() : names) traces[name].push(await contenders[name].once());
  runner?.close();
  for (const name of names) if (name !== 'ours') contenders[name].worker.terminate();
  return { ours: meanTrace(traces.ours), comlink: meanTrace(traces.comlink), raw: meanTrace(traces.raw), rawWork: meanTrace(traces.rawWork) };
}

expose<DispatchOptions, DispatchResult>({
  async run(options) {
    const ours = oursRunner(options);
    const references = {
      raw: rawLoop(options),
      rawWork: rawLoop(options, options.workUs),
      comlink: comlinkDirectLoop(options),
      comlinkChannel: comlinkLoop(options),
      oneThreadOurs: await oursOneThread(options),
      oneThreadEcho: echoOneThread(options),
      oneThreadComlink: comlinkOneThread(options),
    };
    const none: Gaps = { mean: Number.NaN, median: Number.NaN, first: Number.NaN, p90: Number.NaN, p99: Number.NaN, tail: Number.NaN };
    const rounds: DispatchRound[] = [];
    if (options.only) {
      const loop = (references as Record<string, () => Promise<unknown>>)[options.only]!;
      for (let i = 0; i < 40; i++) await loop();
      return { rounds: [], trace: undefined };
    }
    for (let i = 0; i < options.warmup + options.rounds; i++) {
      if (options.references === false) {
        const round = {
          ours: await ours(),
          raw: none,
          rawWork: none,
          comlink: none,
          comlinkChannel: none,
          oneThread: { ours: Number.NaN, echo: Number.NaN, comlink: Number.NaN },
        };
        if (i >= options.warmup) rounds.push(round);
        continue;
      }
      // Alternate the order (ours first, then last) so drift hits every contender alike.
      const timed: Partial<Record<'ours' | keyof typeof references, unknown>> = {};
      const order = ['ours', ...Object.keys(references)] as Array<'ours' | keyof typeof references>;
      for (const name of i % 2 ? order.reverse() : order) timed[name] = await (name === 'ours' ? ours() : references[name]());
      const round = timed as {
        ours: Gaps;
        raw: Gaps;
        rawWork: Gaps;
        comlink: Gaps;
        comlinkChannel: Gaps;
        oneThreadOurs: number;
        oneThreadEcho: number;
        oneThreadComlink: number;
      };
      if (i >= options.warmup) {
        const { ours, raw, rawWork, comlink, comlinkChannel } = round;
        rounds.push({
          ours,
          raw,
          rawWork,
          comlink,
          comlinkChannel,
          oneThread: { ours: round.oneThreadOurs, echo: round.oneThreadEcho, comlink: round.oneThreadComlink },
        });
      }
    }
    if (!options.profiled) ours.close();
    return { rounds, trace: options.references === false || options.traced === false ? undefined : await traced(options, options.tracedRuns ?? 4) };
  },
});
