// shared-attach-latency: a new page of the origin attaching to a run going on in the shared
// runner (`createWorkerRunner({ shared: true })`, the origin's SharedWorker), to its first event,
// against a new page starting a fresh run, to its first event. Each round makes a new runner for
// each side, which the SharedWorker sees as a new page (its own port, its own page lock, its
// configuration), and closes it after. The run attached to has said 20 KB and waits for a
// person's approval, so what the attaching page gets first is the run's state so far.
import { createWorkerRunner, defineTool, type Run, type RunEvent, scriptedEngine } from '../../../src/worker/index.js';
import { expose } from './expose.js';

export interface SharedAttachOptions {
  rounds: number;
  warmup: number;
}

export interface SharedAttachRound {
  /** ms from making the page's runner to the first event of the run it attached to. */
  attach: number;
  /** ms from making the page's runner to the first event of the run it started. */
  fresh: number;
}

export interface SharedAttachResult {
  rounds: SharedAttachRound[];
  /** The events an attaching page got as the run's state so far. */
  stateEvents: number;
}

const hold = defineTool({
  name: 'hold',
  description: 'Wait for a person',
  parameters: { type: 'object', properties: {} },
  idempotent: false,
  needsApproval: true,
  call: () => 'held',
});

const line = 'The quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs.\n';
const PROSE = line.repeat(Math.ceil(20_000 / line.length));

/** `run`'s events, and ms from `started` until the first of them. */
async function firstEvent(started: number, run: Run): Promise<{ ms: number; events: AsyncIterator<RunEvent> }> {
  const events = run.events[Symbol.asyncIterator]();
  const next = await events.next();
  const ms = performance.now() - started;
  if (next.done) throw new Error('the run gave no event');
  return { ms, events };
}

/** How many events `events` gives up to its approval card (the first event already read). */
async function untilCard(events: AsyncIterator<RunEvent>): Promise<number> {
  let count = 1;
  for (let next = await events.next(); !next.done; next = await events.next()) {
    count++;
    if (next.value.type === 'approval_requested') break;
  }
  return count;
}

expose<SharedAttachOptions, SharedAttachResult>({
  async run({ rounds, warmup }) {
    const total = rounds + warmup;
    // Every page here is configured alike, so all share one agent in the SharedWorker: its first
    // reply is the running run's, the others one for each fresh run.
    const replies = [{ text: PROSE, toolCalls: [{ id: 'h1', name: 'hold', arguments: {} }] }, ...Array.from({ length: total }, () => 'ok')];
    const config = { shared: true, engine: scriptedEngine(replies), preamble: 'bench attach' };
    const host = createWorkerRunner(config).tool(hold);
    const run = host.run('hold on');
    for await (const event of run.events) if (event.type === 'approval_requested') break;
    const measured: SharedAttachRound[] = [];
    let stateEvents = 0;
    for (let i = 0; i < total; i++) {
      const sides = {
        attach: async () => {
          const t0 = performance.now();
          const page = createWorkerRunner(config);
          const attached = page.attach(run.runId);
          const { ms, events } = await firstEvent(t0, attached);
          if (i === 0) stateEvents = await untilCard(events);
          page.close();
          return ms;
        },
        fresh: async () => {
          const t0 = performance.now();
          const page = createWorkerRunner(config);
          const started = page.run('hi');
          const { ms } = await firstEvent(t0, started);
          await started.result;
          page.close();
          return ms;
        },
      };
      // Alternate which side goes first, so neither always finds the worker warmer.
      const order = i % 2 === 0 ? (['attach', 'fresh'] as const) : (['fresh', 'attach'] as const);
      const round = {} as SharedAttachRound;
      for (const side of order) round[side] = await sides[side]();
      if (i >= warmup) measured.push(round);
    }
    run.abort();
    host.close();
    return { rounds: measured, stateEvents };
  },
});
