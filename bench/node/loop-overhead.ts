// loop-overhead: one run = one model reply with N calls of a trivial validated tool, then a
// final text. Ours: ChatRunner + Agent on an in-process Engine. Theirs: the AI SDK's
// generateText on its own MockLanguageModelV3. Both models answer instantly, so what is
// timed is the loop: decoding, validating and running the calls, and building the messages.
import Ajv from 'ajv';
// `ai-v6` is ai@6.0.325 under an npm alias: the package's own `ai` devDependency is v7 (the
// ai-sdk entry's peer), which declares Node >= 22; this bench runs on Node 20 and keeps its baseline.
import { generateText, jsonSchema, stepCountIs, tool, type ToolSet } from 'ai-v6';
import { MockLanguageModelV3 } from 'ai-v6/test';
import { Agent, ChatRunner, defineTool, type Engine } from '../../src/index.js';
import { callingEngine } from '../lib/calling-engine.js';
import { median, paired, spread, type Measurement } from '../lib/stats.js';

const schema = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
} as const;

const SAMPLES = 21;
const FINAL_TEXT = 'The sums are done.';
const argsText = (i: number) => `{"a":${i},"b":2}`;

/** `calls` native calls of the trivial `add` tool, then the final text. */
const benchEngine = (calls: number): Engine => callingEngine({ name: 'add', calls, argsText, finalText: FINAL_TEXT });

async function ours(calls: number): Promise<() => Promise<void>> {
  const add = defineTool({
    name: 'add',
    description: 'Add two numbers',
    parameters: schema,
    idempotent: true,
    call: ({ a, b }) => a + b,
  });
  const agent = (await Agent.make(benchEngine(calls))).tool(add);
  const runner = new ChatRunner(5);
  return async () => {
    const result = await runner.run(agent, 'Add the numbers').result;
    if (result.toolResults.length !== calls || result.text !== FINAL_TEXT || !result.toolResults.every((r) => r.ok)) {
      throw new Error(`ours: unexpected result ${JSON.stringify(result).slice(0, 300)}`);
    }
  };
}

/**
 * The AI SDK's `jsonSchema()` does not validate unless given `validate`: it gets an Ajv
 * validator compiled once, up front (the same validator library ours compiles at registration).
 */
function theirs(calls: number): () => Promise<void> {
  const check = new Ajv({ allErrors: true }).compile(schema);
  const tools = {
    add: tool({
      description: 'Add two numbers',
      inputSchema: jsonSchema<{ a: number; b: number }>(schema, {
        validate: (value) =>
          check(value) ? { success: true, value: value as { a: number; b: number } } : { success: false, error: new Error(JSON.stringify(check.errors)) },
      }),
      execute: async ({ a, b }) => a + b,
    }),
  } satisfies ToolSet;
  let next = 0;
  const usage = {
    inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 10, text: 10, reasoning: undefined },
  };
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      if (options.prompt.at(-1)?.role === 'tool') {
        return { content: [{ type: 'text', text: FINAL_TEXT }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      }
      const content = Array.from({ length: calls }, (_, i) => ({
        type: 'tool-call' as const,
        toolCallId: `call_${next++}`,
        toolName: 'add',
        input: argsText(i),
      }));
      return { content, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
    },
  });
  return async () => {
    model.doGenerateCalls.length = 0; // the mock records every call; keep it from growing
    const result = await generateText({ model, tools, prompt: 'Add the numbers', stopWhen: stepCountIs(5) });
    const results = result.steps.flatMap((step) => step.toolResults);
    if (results.length !== calls || result.text !== FINAL_TEXT) throw new Error(`theirs: unexpected result: ${result.text}, ${results.length} results`);
  };
}

/** Runs `run` `n` times back to back; returns microseconds per run. */
const perRun = (run: () => Promise<void>, n: number) => async () => {
  const start = performance.now();
  for (let i = 0; i < n; i++) await run();
  return ((performance.now() - start) * 1000) / n;
};

export async function loopOverhead(): Promise<Measurement[]> {
  const out: Measurement[] = [];
  for (const calls of [1, 5]) {
    const runsPerRound = 200;
    const times = await paired(perRun(await ours(calls), runsPerRound), perRun(theirs(calls), runsPerRound), { warmup: 5, samples: SAMPLES });
    const value = median(times.a);
    const baselineValue = median(times.b);
    out.push({
      name: `loop-overhead-${calls}call${calls === 1 ? '' : 's'}`,
      value,
      unit: 'µs/run',
      baseline: `AI SDK generateText + MockLanguageModelV3 (ai@6), jsonSchema with a precompiled Ajv validate`,
      baselineValue,
      ratio: value / baselineValue,
      target: '<= 0.2',
      note: `±${pct(spread(times.a))} / ±${pct(spread(times.b))}; ${runsPerRound} runs x ${SAMPLES} rounds`,
    });
  }
  return out;
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
