// tool-latency-idle: after the threads have been idle, how long from the model's call reaching the
// worker that runs the loop (the stub model stamps its bytes: stub-model.ts) to the page tool
// starting (it stamps itself). Ours: our runner worker (createWorkerRunner). Theirs: the AI SDK
// app's worker (bench/bundle/theirs: streamText, @ai-sdk/openai-compatible, a zod-checked tool whose
// `execute` calls the page over Comlink). Information: a plain Comlink call of a page function from
// a worker after the same idle (comlink-idle.worker.ts). Both stamps are timeOrigin + now,
// comparable across threads. The three take turns, one call each, so drift hits them alike.
import * as Comlink from 'comlink';
import { createWorkerRunner, defineTool, openAICompatible } from '../../../src/worker/index.js';
import type { AgentApi } from '../../bundle/theirs/agent.worker.js';
import type { IdleCaller } from './comlink-idle.worker.js';
import { expose } from './expose.js';

export interface LatencyOptions {
  rounds: number;
  warmup: number;
  idleMs: number;
}

/** ms from the call reaching the worker (or, for Comlink, being made) to the page function starting, per round. */
export interface LatencyResult {
  ours: number[];
  theirs: number[];
  comlink: number[];
}

const now = () => performance.timeOrigin + performance.now();

/** The stamps the stub models post as they hand a call over, in order. */
function stampsHeard(): { next: () => Promise<number>; close: () => void } {
  const heard: number[] = [];
  let waiting: (() => void) | undefined;
  const channel = new BroadcastChannel('bench-latency');
  channel.onmessage = (event) => {
    heard.push(event.data as number);
    waiting?.();
  };
  return {
    async next() {
      // The stamp crosses on its own channel: it may arrive after the call it stamps.
      while (heard.length === 0) await new Promise<void>((resolve) => (waiting = resolve));
      return heard.shift()!;
    },
    close: () => channel.close(),
  };
}

expose<LatencyOptions, LatencyResult>({
  async run({ rounds, warmup, idleMs }) {
    const baseURL = `http://stub.invalid/idle-${idleMs}/v1`;
    const stamps = stampsHeard();
    let started = 0;
    const ping = defineTool({
      name: 'ping',
      description: 'Answers pong',
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      call: () => {
        started = now();
        return 'pong';
      },
    });
    const runner = createWorkerRunner({
      engine: openAICompatible({ baseURL, model: 'm' }),
      worker: () => new Worker(new URL('./stub-runner.worker.ts', import.meta.url), { type: 'module' }),
    }).tool(ping);
    const theirsWorker = new Worker(new URL('./stub-theirs.worker.ts', import.meta.url), { type: 'module' });
    const agent = Comlink.wrap<AgentApi>(theirsWorker);
    const page = Comlink.proxy({
      readTitle: () => {
        started = now();
        return document.title;
      },
    });
    const onText = Comlink.proxy(() => {});
    const comlinkWorker = new Worker(new URL('./comlink-idle.worker.ts', import.meta.url), { type: 'module' });
    const caller = Comlink.wrap<IdleCaller>(comlinkWorker);
    let gap = 0;
    const pinged = Comlink.proxy({
      ping: (sentAt: number) => {
        gap = now() - sentAt;
      },
    });

    const sides = {
      ours: async () => {
        const result = await runner.run('ping').result;
        if (result.toolResults.length !== 1 || !result.toolResults[0]!.ok) throw new Error('ours: the call did not run');
        return started - (await stamps.next());
      },
      theirs: async () => {
        const turns = await agent.ask('What is the title of this page?', baseURL, page, onText);
        if (turns !== 2) throw new Error(`theirs: ${turns} turns`);
        return started - (await stamps.next());
      },
      comlink: async () => {
        await caller.calls(pinged, 1, idleMs);
        return gap;
      },
    };
    const names = Object.keys(sides) as Array<keyof typeof sides>;
    const out: LatencyResult = { ours: [], theirs: [], comlink: [] };
    for (let i = 0; i < warmup + rounds; i++) {
      for (const name of i % 2 ? [...names].reverse() : names) {
        const ms = await sides[name]();
        if (i >= warmup) out[name].push(ms);
      }
    }
    runner.close();
    theirsWorker.terminate();
    comlinkWorker.terminate();
    stamps.close();
    return out;
  },
});
