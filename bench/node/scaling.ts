// How a run's cost grows with what a user's app grows: tools (tools-1000-native, tools-1000-tag)
// and runs in flight (runs-1000), each a ratio against the same run on the small side. The
// conversation's growth is bench/node/conversation-growth.ts.
import { Agent, ChatRunner, defineTool, type Tool } from '../../src/index.js';
import { callingEngine } from '../lib/calling-engine.js';
import { now } from '../lib/clock.js';
import { paired, pairedFigure, spread, type Measurement } from '../lib/stats.js';

const schema = {
  type: 'object',
  properties: { a: { type: 'number', description: 'The first number' }, b: { type: 'number', description: 'The second number' } },
  required: ['a', 'b'],
  additionalProperties: false,
} as const;
const FINAL_TEXT = 'Done.';
const RUNS_PER_ROUND = 200;
const argsText = () => '{"a":1,"b":2}';
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

/** `count` tools like an MCP server's: a name, a sentence, a two-number schema. */
function manyTools(count: number): Tool[] {
  return Array.from({ length: count }, (_, i) =>
    defineTool({
      name: `add_${i}`,
      description: `Add two numbers (variant ${i} of the tool list, as a server with many tools lists them).`,
      parameters: schema,
      idempotent: true,
      call: ({ a, b }) => a + b,
    }),
  );
}

/** One run: a call of `add_0`, then the final text. */
async function toolRuns(tools: number, calling: 'native' | 'tags'): Promise<() => Promise<void>> {
  const agent = await Agent.make(callingEngine({ name: 'add_0', calls: 1, argsText, finalText: FINAL_TEXT, calling }), {
    preamble: 'You add numbers.',
  });
  for (const tool of manyTools(tools)) agent.tool(tool);
  const runner = new ChatRunner(5);
  return async () => {
    const result = await runner.run(agent, 'Add 1 and 2').result;
    if (result.toolResults.length !== 1 || !result.toolResults[0]!.ok || result.text !== FINAL_TEXT)
      throw new Error(`tools-${tools}-${calling}: ${result.text}`);
  };
}

/** Microseconds per run of `run`, `n` back to back. */
const perRun = (run: () => Promise<void>, n: number) => async () => {
  const start = now();
  for (let i = 0; i < n; i++) await run();
  return ((now() - start) * 1000) / n;
};

async function toolsFigure(calling: 'native' | 'tags'): Promise<Measurement> {
  const large = await toolRuns(1000, calling);
  const small = await toolRuns(10, calling);
  // Rounds of 200 runs (about 20 ms): rounds of 50 were short enough for one GC pause to decide a round.
  const times = await paired(perRun(large, RUNS_PER_ROUND), perRun(small, RUNS_PER_ROUND), { warmup: 3, samples: 15 });
  return {
    name: `tools-1000-${calling === 'native' ? 'native' : 'tag'}`,
    unit: 'µs/run',
    baseline: `the same run with 10 tools registered (${calling === 'native' ? 'native calls' : 'calls in [TOOL_CALL] tags, the tools taught in the system prompt'})`,
    ...pairedFigure(times.a, times.b),
    target: '<= 1.5',
    note: `a run: one call of add_0, then the final text (2 model turns); ${RUNS_PER_ROUND} runs x 15 rounds, ±${pct(spread(times.a))}/±${pct(spread(times.b))}`,
  };
}

/** Microseconds per run with `inFlight` runs started together, `total` runs in all. */
async function concurrentRuns(total: number, inFlight: number): Promise<() => Promise<number>> {
  const agent = await Agent.make(callingEngine({ name: 'add_0', calls: 1, argsText, finalText: FINAL_TEXT }));
  for (const tool of manyTools(10)) agent.tool(tool);
  const runner = new ChatRunner(5);
  const one = async () => {
    const result = await runner.run(agent, 'Add 1 and 2').result;
    if (result.text !== FINAL_TEXT) throw new Error(`runs: ${result.text}`);
  };
  return async () => {
    const start = now();
    for (let started = 0; started < total; started += inFlight) await Promise.all(Array.from({ length: Math.min(inFlight, total - started) }, one));
    return ((now() - start) * 1000) / total;
  };
}

async function runsFigure(): Promise<Measurement> {
  const times = await paired(await concurrentRuns(1000, 1000), await concurrentRuns(1000, 1), { warmup: 2, samples: 11 });
  return {
    name: 'runs-1000',
    unit: 'µs/run',
    baseline: 'the same 1,000 runs one at a time (one ChatRunner, one agent)',
    ...pairedFigure(times.a, times.b),
    target: '<= 1.5',
    note: `1,000 runs started together on one ChatRunner and one agent, each one call then the final text; 11 rounds, ±${pct(spread(times.a))}/±${pct(spread(times.b))}`,
  };
}

/** tools-1000-native, tools-1000-tag. */
export async function toolScaling(): Promise<Measurement[]> {
  const only = process.env.BENCH_TOOLS_ONLY;
  if (only) {
    // For a profile of one side alone (`<tools>-<native|tags>`, e.g. 1000-tags): 3,000 runs, no figure.
    const [count, calling] = only.split('-');
    const run = await toolRuns(Number(count), calling === 'tags' ? 'tags' : 'native');
    await perRun(run, 3000)();
    return [];
  }
  return [await toolsFigure('native'), await toolsFigure('tags')];
}

/** runs-1000. */
export async function runScaling(): Promise<Measurement[]> {
  return [await runsFigure()];
}
