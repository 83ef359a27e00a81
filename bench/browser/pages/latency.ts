// tool-latency-idle: after the threads have been idle, how long from the model's call reaching the
// runner worker (the stub model stamps its bytes: stub-runner.worker.ts) to the page tool starting
// (it stamps itself), against a plain Comlink call of a page function from a worker after the same
// idle time (comlink-idle.worker.ts). Both stamps are timeOrigin + now, comparable across threads.
import * as Comlink from 'comlink';
import { createWorkerRunner, defineTool, openAICompatible } from '../../../src/worker/index.js';
import type { IdleCaller } from './comlink-idle.worker.js';
import { expose } from './expose.js';

export interface LatencyOptions {
  rounds: number;
  warmup: number;
  idleMs: number;
}

export interface LatencyResult {
  /** ms from the call reaching the worker to the page tool starting, per round. */
  ours: number[];
  /** ms from the Comlink call made to the page function starting, per round. */
  comlink: number[];
}

const now = () => performance.timeOrigin + performance.now();

async function ours({ rounds, warmup, idleMs }: LatencyOptions): Promise<number[]> {
  const started: number[] = [];
  const sent: number[] = [];
  const stamps = new BroadcastChannel('bench-latency');
  stamps.onmessage = (event) => sent.push(event.data as number);
  const ping = defineTool({
    name: 'ping',
    description: 'Answers pong',
    parameters: { type: 'object', properties: {} },
    readOnly: true,
    call: () => {
      started.push(now());
      return 'pong';
    },
  });
  const runner = createWorkerRunner({
    engine: openAICompatible({ baseURL: 'http://stub.invalid/v1', model: `idle-${idleMs}` }),
    worker: () => new Worker(new URL('./stub-runner.worker.ts', import.meta.url), { type: 'module' }),
  }).tool(ping);
  for (let i = 0; i < warmup + rounds; i++) await runner.run('ping').result;
  runner.close();
  // The last stamp crosses on its own channel: let it arrive.
  await new Promise((resolve) => setTimeout(resolve, 50));
  stamps.close();
  if (started.length !== sent.length) throw new Error(`ours: ${started.length} calls started, ${sent.length} stamped`);
  return started.map((at, i) => at - sent[i]!).slice(warmup);
}

async function comlink({ rounds, warmup, idleMs }: LatencyOptions): Promise<number[]> {
  const worker = new Worker(new URL('./comlink-idle.worker.ts', import.meta.url), { type: 'module' });
  const caller = Comlink.wrap<IdleCaller>(worker);
  const gaps: number[] = [];
  await caller.calls(
    Comlink.proxy({
      ping: (sentAt: number) => {
        gaps.push(now() - sentAt);
      },
    }),
    warmup + rounds,
    idleMs,
  );
  worker.terminate();
  return gaps.slice(warmup);
}

expose<LatencyOptions, LatencyResult>({
  async run(options) {
    return { ours: await ours(options), comlink: await comlink(options) };
  },
});
