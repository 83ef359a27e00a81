// language-model-engine-overhead: one streamed run with one call of a trivial validated tool, on
// an AI SDK language model: a few text deltas, the call, its result fed back, a streamed final
// text. Ours: ChatRunner + Agent on `languageModelEngine(model)`, every run event read. Theirs:
// the AI SDK's (ai@7) `streamText` on the same MockLanguageModelV4 (a fresh one per side, streaming the
// same parts), every part of `fullStream` read. The mock answers at once, so what is timed is
// each side's loop and its reading of the model's stream.
import { isStepCount, streamText } from 'ai';
import { Agent, ChatRunner, defineTool } from '../../src/index.js';
import { languageModelEngine } from '../../src/ai-sdk/index.js';
import { streamingMock, validatedTool } from '../lib/ai-sdk-mock.js';
import { now } from '../lib/clock.js';
import { paired, pairedFigure, spread, type Measurement } from '../lib/stats.js';

const schema = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
} as const;

const SAMPLES = 21;
const RUNS_PER_ROUND = 100;
const DELTAS = ['Let me ', 'add ', 'those ', 'up ', 'for ', 'you.'];
const FINAL_TEXT = 'The sum is done.';
const script = { name: 'add', calls: 1, argsText: (i: number) => `{"a":${i},"b":2}`, finalText: FINAL_TEXT, deltas: DELTAS };

async function ours(): Promise<() => Promise<void>> {
  const add = defineTool({ name: 'add', description: 'Add two numbers', parameters: schema, idempotent: true, call: ({ a, b }) => a + b });
  const agent = (await Agent.make(languageModelEngine(streamingMock(script)))).tool(add);
  const runner = new ChatRunner(5);
  return async () => {
    const run = runner.run(agent, 'Add the numbers');
    let deltas = 0;
    for await (const event of run.events) if (event.type === 'text_delta') deltas++;
    const result = await run.result;
    if (result.toolResults.length !== 1 || !result.toolResults[0]!.ok || !result.text.endsWith(FINAL_TEXT) || deltas === 0) {
      throw new Error(`ours: unexpected result ${JSON.stringify(result).slice(0, 300)}`);
    }
  };
}

function theirs(): () => Promise<void> {
  const model = streamingMock(script);
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
    if (results !== 1 || !(await result.text).endsWith(FINAL_TEXT) || deltas === 0) throw new Error(`theirs: ${results} results`);
  };
}

/** Runs `run` `n` times back to back; returns microseconds per run. */
const perRun = (run: () => Promise<void>, n: number) => async () => {
  const start = now();
  for (let i = 0; i < n; i++) await run();
  return ((now() - start) * 1000) / n;
};

export async function languageModelEngineOverhead(): Promise<Measurement[]> {
  const times = await paired(perRun(await ours(), RUNS_PER_ROUND), perRun(theirs(), RUNS_PER_ROUND), { warmup: 4, samples: SAMPLES });
  return [
    {
      name: 'language-model-engine-overhead',
      unit: 'µs per run (1 call)',
      baseline:
        'AI SDK streamText (ai@7) on the same MockLanguageModelV4 streaming the same parts, fullStream read, jsonSchema with a precompiled Ajv validate',
      ...pairedFigure(times.a, times.b),
      target: '<= 0.2',
      note: `ours: languageModelEngine(mock) driven by its doStream, every run event read; ±${pct(spread(times.a))} / ±${pct(spread(times.b))}; ${RUNS_PER_ROUND} runs of each x ${SAMPLES} rounds`,
    },
  ];
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
