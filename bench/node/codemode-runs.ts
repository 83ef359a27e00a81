// Code Mode in runs (Node, in-process sandbox):
// - codemode-20-calls: a task of 20 tool calls as one program (2 model requests) against the same
//   task as 20 model turns of one call each (21 requests), with the same scripted model; wall time
//   and model requests, with a model that answers at once and with one that takes 20 ms a reply.
// - codemode-call-overhead: one call a program makes (the sandbox's bridge, then the call
//   pipeline, its events under the run_code call) against the same call made directly by the
//   runner through its call pipeline (a tool that calls the run's pipeline in a loop), both
//   sequential, each less its empty form (a program with no calls, a loop of none).
import { Agent, ChatRunner, defineTool } from '../../src/index.js';
import type { Engine, EngineEvent, EngineRequest } from '../../src/extend/index.js';
import { TurnScope } from '../../src/runner/turn-scope.js';
import { median, type Measurement, medianUpper95, paired, pairedFigure, spread } from '../lib/stats.js';

const CALLS = 20;

/** A model that answers by the results it has read so far in this run: `plan(results)` gives the next call(s), or text. */
class Planner implements Engine {
  readonly nativeTools = true;
  requests = 0;
  constructor(
    readonly plan: (results: number) => { name: string; arguments: unknown } | string,
    readonly latencyMs = 0,
  ) {}
  async *stream(request: EngineRequest): AsyncIterable<EngineEvent> {
    this.requests++;
    if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
    const results = request.messages.length - request.messages.findLastIndex((m) => m.role === 'user') - 1;
    const next = this.plan(Math.ceil(results / 2));
    yield { type: 'usage', usage: { promptTokens: 100, completionTokens: 5, totalTokens: 105 } };
    if (typeof next === 'string') {
      yield { type: 'text', text: next };
      yield { type: 'finish', reason: 'stop' };
      return;
    }
    yield { type: 'tool_call', call: { id: `c${results}`, name: next.name, arguments: next.arguments } };
    yield { type: 'finish', reason: 'tool_calls' };
  }
}

const price = defineTool({
  name: 'price',
  description: 'The price of an item',
  parameters: { type: 'object', properties: { item: { type: 'number' } }, required: ['item'] },
  readOnly: true,
  call: ({ item }: { item: number }) => ({ item, cents: 100 + item }),
});

const PROGRAM = `let total = 0; for (let item = 0; item < ${CALLS}; item++) total += (await tools.price({ item })).cents; return total;`;

/** One run of the task, as a program or as turns; resolves with its wall time (ms) and model requests. */
async function task(form: 'program' | 'turns', latencyMs: number): Promise<() => Promise<{ ms: number; requests: number }>> {
  const planner =
    form === 'program'
      ? new Planner((results) => (results === 0 ? { name: 'run_code', arguments: { code: PROGRAM } } : 'The total is 4190 cents.'), latencyMs)
      : new Planner((results) => (results < CALLS ? { name: 'price', arguments: { item: results } } : 'The total is 4190 cents.'), latencyMs);
  const agent = (await Agent.make(planner, { codeMode: true })).tool(price);
  const runner = new ChatRunner();
  return async () => {
    const before = planner.requests;
    const start = performance.now();
    const result = await runner.run(agent, 'What do items 0 to 19 cost together?', { maxIterations: CALLS + 2 }).result;
    const ms = performance.now() - start;
    const made = form === 'program' ? (result.toolResults[0]?.ok ? 1 : 0) : result.toolResults.length;
    if (made !== (form === 'program' ? 1 : CALLS)) throw new Error(`codemode-20-calls (${form}): ${JSON.stringify(result.toolResults[0]).slice(0, 300)}`);
    return { ms, requests: planner.requests - before };
  };
}

export async function codemode20Calls(): Promise<Measurement[]> {
  const figures: Measurement[] = [];
  for (const latencyMs of [0, 20]) {
    const program = await task('program', latencyMs);
    const turns = await task('turns', latencyMs);
    let requests = { program: 0, turns: 0 };
    const times = await paired(
      async () => {
        const one = await program();
        requests.program = one.requests;
        return one.ms;
      },
      async () => {
        const one = await turns();
        requests.turns = one.requests;
        return one.ms;
      },
      { warmup: 3, samples: latencyMs === 0 ? 21 : 9 },
    );
    const model = latencyMs === 0 ? 'a scripted model that answers at once' : 'a scripted model that takes 20 ms a reply';
    figures.push({
      name: latencyMs === 0 ? 'codemode-20-calls' : 'codemode-20-calls-20ms-model',
      unit: 'ms per task',
      baseline: `the same 20 calls as 20 model turns, ${model}`,
      target: null,
      ...pairedFigure(times.a, times.b),
      note: `model requests: ${requests.program} (one program) vs ${requests.turns} (turns); ±${pct(spread(times.a))} / ±${pct(spread(times.b))}; in-process sandbox (Node), a fresh QuickJS instance per program`,
    });
    requests = { program: 0, turns: 0 };
  }
  return figures;
}

/** A tool that makes `n` calls of `price` through the run's call pipeline, one after another, as the runner makes a call. */
const direct = defineTool({
  name: 'direct',
  description: 'Price n items through the pipeline',
  parameters: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
  readOnly: true,
  call: async ({ n }: { n: number }, ctx) => {
    const pipeline = TurnScope.pipelineOf(ctx.run!)!;
    let total = 0;
    for (let item = 0; item < n; item++) {
      const result = await pipeline.tools.execute(
        { id: `${ctx.callId}.${item}`, name: 'price', arguments: { item }, idempotencyKey: `${ctx.idempotencyKey}.${item}` },
        { run: pipeline.run, scope: ctx.run! },
      );
      if (!result.ok) throw new Error(result.error.message);
      total += (result.output as { cents: number }).cents;
    }
    return total;
  },
});

const PER_RUN = 400;

/** Per call (µs): a run of one call (`run_code` or `direct`) making PER_RUN calls, less the same run making none. */
async function perCall(form: 'program' | 'direct'): Promise<() => Promise<number>> {
  const call = (n: number) =>
    form === 'program'
      ? { name: 'run_code', arguments: { code: `let t = 0; for (let item = 0; item < ${n}; item++) t += (await tools.price({ item })).cents; return t;` } }
      : { name: 'direct', arguments: { n } };
  const make = async (n: number) => {
    const agent = (await Agent.make(new Planner((results) => (results === 0 ? call(n) : 'done')), { codeMode: true })).tool(price).tool(direct);
    return async () => {
      const start = performance.now();
      const result = await new ChatRunner().run(agent, 'go').result;
      if (!result.toolResults[0]?.ok) throw new Error(`codemode-call-overhead (${form}): ${JSON.stringify(result.toolResults[0]).slice(0, 300)}`);
      return performance.now() - start;
    };
  };
  const full = await make(PER_RUN);
  const empty = await make(0);
  return async () => {
    const with_ = await full();
    const without = await empty();
    return ((with_ - without) * 1000) / PER_RUN;
  };
}

export async function codemodeCallOverhead(): Promise<Measurement[]> {
  const times = await paired(await perCall('program'), await perCall('direct'), { warmup: 8, samples: 21 });
  const ratios = times.a.map((a, i) => a / times.b[i]!);
  return [
    {
      name: 'codemode-call-overhead',
      unit: 'µs per call',
      baseline: 'the same call made directly by the runner through its call pipeline (a read-only tool, in a run, sequential)',
      target: '<= 3',
      ...pairedFigure(times.a, times.b),
      note: `${PER_RUN} sequential calls per run, less the same run with none; the floor is the sandbox's bridge (an awaited host call out of QuickJS and back, JSON both ways: codemode-host-call), against a trivial read-only tool called in-process; upper 95% of the per-round ratio ${medianUpper95(ratios).toFixed(2)}; ±${pct(spread(times.a))} / ±${pct(spread(times.b))}; in-process sandbox (Node); median ours ${median(times.a).toFixed(1)} µs`,
    },
  ];
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
