// loop-overhead-stream: one streamed run, from the request to its last event, with 1 and with 5
// calls of a trivial validated tool: a few text deltas, the calls, the tool results fed back, a
// streamed final text. Ours: ChatRunner + Agent on an in-process Engine, every run event read.
// Theirs: the AI SDK's (ai@7) `streamText` on its MockLanguageModelV4 streaming the same parts, every
// part of `fullStream` read. Both models answer at once, so what is timed is the loop.
import { isStepCount, streamText } from 'ai';
import { Agent, ChatRunner, defineTool } from '../../src/index.js';
import { streamingMock, validatedTool } from '../lib/ai-sdk-mock.js';
import { callingEngine } from '../lib/calling-engine.js';
import { now } from '../lib/clock.js';
import { median, paired, pairedFigure, spread, type Measurement } from '../lib/stats.js';

const schema = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
} as const;

const SAMPLES = 21;
const RUNS_PER_ROUND = 100;
const DELTAS = ['Let me ', 'add ', 'those ', 'up ', 'for ', 'you.'];
const FINAL_TEXT = 'The sums are done.';
const argsText = (i: number) => `{"a":${i},"b":2}`;
const script = (calls: number) => ({ name: 'add', calls, argsText, finalText: FINAL_TEXT, deltas: DELTAS });

async function ours(calls: number): Promise<() => Promise<void>> {
  const add = defineTool({ name: 'add', description: 'Add two numbers', parameters: schema, idempotent: true, call: ({ a, b }) => a + b });
  const agent = (await Agent.make(callingEngine(script(calls)))).tool(add);
  const runner = new ChatRunner(5);
  return async () => {
    const run = runner.run(agent, 'Add the numbers');
    let deltas = 0;
    for await (const event of run.events) if (event.type === 'text_delta') deltas++;
    const result = await run.result;
    if (result.toolResults.length !== calls || !result.text.endsWith(FINAL_TEXT) || !result.toolResults.every((r) => r.ok) || deltas === 0) {
      throw new Error(`ours: unexpected result ${JSON.stringify(result).slice(0, 300)}`);
    }
  };
}

function theirs(calls: number): () => Promise<void> {
  const model = streamingMock(script(calls));
  const tools = { add: validatedTool(schema, ({ a, b }) => a! + b!) };
  return async () => {
    const result = streamText({ model, tools, prompt: 'Add the numbers', stopWhen: isStepCount(5) });
    let results = 0;
    let deltas = 0;
    for await (const part of result.fullStream) {
      if (part.type === 'tool-result') results++;
      else if (part.type === 'text-delta') deltas++;
      else if (part.type === 'error') throw part.error;
    }
    if (results !== calls || !(await result.text).endsWith(FINAL_TEXT) || deltas === 0) throw new Error(`theirs: ${results} results`);
  };
}

/** Runs `run` `n` times back to back; returns microseconds per run. */
const perRun = (run: () => Promise<void>, n: number) => async () => {
  const start = now();
  for (let i = 0; i < n; i++) await run();
  return ((now() - start) * 1000) / n;
};

export async function loopOverhead(): Promise<Measurement[]> {
  // A round is a run with 1 call then a run with 5, on each side.
  const both = async (one: () => Promise<void>, five: () => Promise<void>) => {
    const a = perRun(one, RUNS_PER_ROUND);
    const b = perRun(five, RUNS_PER_ROUND);
    const parts: number[] = [];
    const round = async () => {
      const x = await a();
      const y = await b();
      parts.push(x, y);
      return x + y;
    };
    return { round, parts };
  };
  const o = await both(await ours(1), await ours(5));
  const t = await both(theirs(1), theirs(5));
  const times = await paired(o.round, t.round, { warmup: 4, samples: SAMPLES });
  const part = (parts: number[], at: number) => median(parts.slice(8).filter((_, i) => i % 2 === at));
  return [
    {
      name: 'loop-overhead-stream',
      unit: 'µs per pair of runs (1 call, 5 calls)',
      baseline: 'AI SDK streamText (ai@7) on MockLanguageModelV4 streaming the same parts, fullStream read, jsonSchema with a precompiled Ajv validate',
      ...pairedFigure(times.a, times.b),
      target: '<= 0.2',
      note: `1 call: ours ${part(o.parts, 0).toFixed(0)} µs, theirs ${part(t.parts, 0).toFixed(0)} µs; 5 calls: ours ${part(o.parts, 1).toFixed(0)} µs, theirs ${part(t.parts, 1).toFixed(0)} µs; ±${pct(spread(times.a))} / ±${pct(spread(times.b))}; ${RUNS_PER_ROUND} runs of each x ${SAMPLES} rounds`,
    },
  ];
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
