// dispatch-one-thread and dispatch-node: `worker-dispatch-js` in Node, for quick measuring, profiling and gating. Both ends
// of our session (the runner host and the page port) on one thread over a MessageChannel, a
// scripted reply of 200 idempotent `ping` calls at concurrency 1, against a bare echo and a plain
// Comlink call over such a channel, timed the same way (the tool stamps each call; µs per call
// is (last - first) / 199). With no thread to wake, the differences are JavaScript per call.
import { serialize } from 'node:v8';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import * as Comlink from 'comlink';
import { scriptedEngine } from '../../src/worker/index.js';
import { pingScript, pingTool } from '../lib/ping.js';
import { serveCall, servedTool } from '../../src/call/serve.js';
import { toDescriptor } from '../../src/worker/wire/descriptor.js';
import { PageHost } from '../../src/worker/page/page-host.js';
import { registerTransferHandlers } from '../../src/worker/wire/transfer-handlers.js';
import { exposeRunnerHost } from '../../src/worker/runner/runner-host.js';
import type { RunnerWorkerApi, ToolInvoker } from '../../src/worker/wire/protocol.js';
import { median, overRounds, spread, type Measurement } from '../lib/stats.js';

const CALLS = 200;
const WARMUP = 10;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

/** Every port made, closed at the end: an open one keeps the process alive. */
const opened: MessagePort[] = [];
const channel = () => {
  const made = new MessageChannel();
  opened.push(made.port1, made.port2);
  return made;
};

/** Bytes each contender's ports posted (structured-clone serialised, as they cross), counted only while `counting`. */
const posted: Record<'ours' | 'comlink', number> = { ours: 0, comlink: 0 };
let counting = false;
function countPosts(port: MessagePort, who: keyof typeof posted): void {
  const post = port.postMessage.bind(port);
  port.postMessage = (data: unknown, transfer?: readonly Transferable[]) => {
    if (counting) posted[who] += serialize(data).length;
    post(data, transfer as never);
  };
}

const perCall = (stamps: readonly number[]) => ((stamps[stamps.length - 1]! - stamps[0]!) / (stamps.length - 1)) * 1000;
/** Each round's first gap, µs: ours holds the rest of the reply's processing (the other calls read, announced, queued). */
const firstGaps: Record<'ours' | 'comlink', number[]> = { ours: [], comlink: [] };
const firstGap = (stamps: readonly number[]) => (stamps[1]! - stamps[0]!) * 1000;

async function ours(): Promise<() => Promise<number>> {
  const { port1, port2 } = channel();
  countPosts(port1, 'ours');
  countPosts(port2, 'ours');
  const stamps: number[] = [];
  const ping = pingTool(stamps);
  registerTransferHandlers();
  exposeRunnerHost(port1 as unknown as Comlink.Endpoint);
  let ended = () => {};
  const pingServed = servedTool(ping);
  const served = new Map<string, ToolInvoker>([
    ['ping', { call: (args, ctx, abort) => serveCall(pingServed, args, ctx, abort), needsApproval: async () => false }],
  ]);
  const pageHost = new PageHost(
    served,
    (_runId, events) => {
      if (events === null) ended();
    },
    true,
  );
  pageHost.serve(port2 as unknown as Comlink.Endpoint);
  const host = Comlink.wrap<RunnerWorkerApi>(port2 as unknown as Comlink.Endpoint);
  await host.configure({ engine: scriptedEngine(pingScript(CALLS, WARMUP + ROUNDS + 1)), concurrency: 1 });
  await host.registerTools([toDescriptor(ping)]);
  let run = 0;
  return () =>
    new Promise<number>((resolve) => {
      stamps.length = 0;
      ended = () => {
        if (stamps.length !== CALLS) throw new Error(`ours: ${stamps.length} calls of ${CALLS}`);
        firstGaps.ours.push(firstGap(stamps));
        resolve(perCall(stamps));
      };
      void host.startRun(`one-thread-${run++}`, 'ping them all', { maxCallsPerReply: CALLS });
    });
}

function echo(): () => Promise<number> {
  const { port1, port2 } = channel();
  port2.on('message', (data: { id: number }) => port2.postMessage({ type: 'reply', id: data.id, ok: true, output: 'pong' }));
  // One listener for every round (a port whose last listener goes stops delivering).
  let onReply = () => {};
  port1.on('message', () => onReply());
  return () =>
    new Promise<number>((resolve) => {
      const stamps: number[] = [];
      let left = CALLS;
      onReply = () => {
        stamps.push(performance.now());
        if (--left > 0) port1.postMessage({ type: 'call', id: left, name: 'ping', args: {} });
        else resolve(perCall(stamps));
      };
      port1.postMessage({ type: 'call', id: left, name: 'ping', args: {} });
    });
}

function comlink(): () => Promise<number> {
  const { port1, port2 } = channel();
  countPosts(port1, 'comlink');
  countPosts(port2, 'comlink');
  let stamps: number[] = [];
  Comlink.expose({ ping: () => (stamps.push(performance.now()), 'pong') }, port1 as unknown as Comlink.Endpoint);
  const page = Comlink.wrap<{ ping(args: unknown): Promise<string> }>(port2 as unknown as Comlink.Endpoint);
  port1.start();
  port2.start();
  return async () => {
    stamps = [];
    for (let i = 0; i < CALLS; i++) await page.ping({});
    firstGaps.comlink.push(firstGap(stamps));
    return perCall(stamps);
  };
}

/** Each contender's µs per call, by round (alternating order), and the bytes ours and Comlink's post per call (one more round each, counted). */
async function measure() {
  const contenders = { ours: await ours(), echo: echo(), comlink: comlink() };
  const names = Object.keys(contenders) as Array<keyof typeof contenders>;
  const times: Record<keyof typeof contenders, number[]> = { ours: [], echo: [], comlink: [] };
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    // Alternate the order so drift hits every contender alike.
    for (const name of i % 2 ? [...names].reverse() : names) {
      const t = await contenders[name]();
      if (i >= WARMUP) times[name].push(t);
    }
  }
  counting = true;
  await contenders.ours();
  await contenders.comlink();
  counting = false;
  for (const port of opened) port.close();
  return { times, bytes: { ours: posted.ours / CALLS, comlink: posted.comlink / CALLS } };
}

const pct = (v: number[]) => `±${Math.round(spread(v) * 100)}%`;

/**
 * dispatch-node: a page-tool call through our wire (validation, approval and limiter path, the
 * attempt timed, its events sent) against a plain Comlink call of the same function, in the same
 * one-thread harness; the gate on per-call dispatch in Node.
 */
export async function dispatchNode(): Promise<Measurement[]> {
  const { times, bytes } = await measure();
  const [o, c] = [median(times.ours), median(times.comlink)];
  return [
    {
      name: 'dispatch-node',
      value: o,
      unit: 'µs/call',
      baseline: 'plain Comlink call over a MessageChannel, one thread (Node)',
      baselineValue: c,
      ...overRounds(times.ours.map((ours, i) => ours / times.comlink[i]!)),
      target: '<= 1.25',
      note: `Node, one thread, MessageChannel; ${CALLS} calls x ${ROUNDS} rounds; ours ${o.toFixed(1)} µs (${pct(times.ours)}), plain Comlink ${c.toFixed(1)} µs (${pct(times.comlink)}); bytes posted per call (structured clone, both ways, events and the run's own messages shared out): ours ${Math.round(bytes.ours)}, Comlink ${Math.round(bytes.comlink)}`,
    },
  ];
}

export async function dispatchOneThread(): Promise<Measurement[]> {
  const { times } = await measure();
  const [o, e, c] = [median(times.ours), median(times.echo), median(times.comlink)];
  const note = `Node, one thread, MessageChannel; ${CALLS} calls x ${ROUNDS} rounds; ours ${o.toFixed(1)} µs (${pct(times.ours)}), plain Comlink ${c.toFixed(1)} µs (${pct(times.comlink)}), bare echo ${e.toFixed(1)} µs (${pct(times.echo)}); JS per call: ours ${(o - e).toFixed(1)} µs, Comlink ${(c - e).toFixed(1)} µs; first gap ours ${median(firstGaps.ours).toFixed(0)} µs, Comlink ${median(firstGaps.comlink).toFixed(0)} µs`;
  return [
    {
      name: 'dispatch-one-thread',
      value: o,
      unit: 'µs/call',
      baseline: 'bare echo over a MessageChannel, one thread (Node)',
      baselineValue: e,
      ...overRounds(times.ours.map((ours, i) => ours / times.echo[i]!)),
      target: null,
      note,
    },
  ];
}
