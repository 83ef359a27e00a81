// How a run's cost grows with what a user's app grows: tools (tools-1000-native, tools-1000-tag),
// runs in flight (runs-1000) and the conversation (conversation-growth). Each is a ratio against
// the same run on the small side, or (conversation-growth) against the AI SDK on the same history.
import { stepCountIs, streamText, type ModelMessage } from 'ai-v6';
import { Agent, ChatRunner, defineTool, MemoryConversationStore, type Tool } from '../../src/index.js';
import { streamingMock, validatedTool } from '../lib/ai-sdk-mock.js';
import { callingEngine } from '../lib/calling-engine.js';
import { conversation, toModelMessage } from '../lib/conversation.js';
import { median, paired, spread, type Measurement } from '../lib/stats.js';

const schema = {
  type: 'object',
  properties: { a: { type: 'number', description: 'The first number' }, b: { type: 'number', description: 'The second number' } },
  required: ['a', 'b'],
  additionalProperties: false,
} as const;
const FINAL_TEXT = 'Done.';
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
  const start = performance.now();
  for (let i = 0; i < n; i++) await run();
  return ((performance.now() - start) * 1000) / n;
};

async function toolsFigure(calling: 'native' | 'tags'): Promise<Measurement> {
  const large = await toolRuns(1000, calling);
  const small = await toolRuns(10, calling);
  const times = await paired(perRun(large, 50), perRun(small, 50), { warmup: 3, samples: 15 });
  const value = median(times.a);
  const baselineValue = median(times.b);
  return {
    name: `tools-1000-${calling === 'native' ? 'native' : 'tag'}`,
    value,
    unit: 'µs/run',
    baseline: `the same run with 10 tools registered (${calling === 'native' ? 'native calls' : 'calls in [TOOL_CALL] tags, the tools taught in the system prompt'})`,
    baselineValue,
    ratio: value / baselineValue,
    target: '<= 1.5',
    note: `a run: one call of add_0, then the final text (2 model turns); 50 runs x 15 rounds, ±${pct(spread(times.a))}/±${pct(spread(times.b))}`,
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
    const start = performance.now();
    for (let started = 0; started < total; started += inFlight) await Promise.all(Array.from({ length: Math.min(inFlight, total - started) }, one));
    return ((performance.now() - start) * 1000) / total;
  };
}

async function runsFigure(): Promise<Measurement> {
  const times = await paired(await concurrentRuns(1000, 1000), await concurrentRuns(1000, 1), { warmup: 2, samples: 11 });
  const value = median(times.a);
  const baselineValue = median(times.b);
  return {
    name: 'runs-1000',
    value,
    unit: 'µs/run',
    baseline: 'the same 1,000 runs one at a time (one ChatRunner, one agent)',
    baselineValue,
    ratio: value / baselineValue,
    target: '<= 1.5',
    note: `1,000 runs started together on one ChatRunner and one agent, each one call then the final text; 11 rounds, ±${pct(spread(times.a))}/±${pct(spread(times.b))}`,
  };
}

/**
 * A run on a stored conversation of `length` messages, default config (the memory store, no
 * context budget): the history is read, sent with one call and its result, and appended to. The
 * conversation is cut back to `length` after each run, outside the timing.
 */
async function oursOnHistory(length: number): Promise<() => Promise<number>> {
  const store = new MemoryConversationStore();
  await store.append('c', conversation(length));
  const agent = await Agent.make(callingEngine({ name: 'add_0', calls: 1, argsText, finalText: FINAL_TEXT }), { conversations: store });
  for (const tool of manyTools(10)) agent.tool(tool);
  const runner = new ChatRunner(5);
  return async () => {
    const start = performance.now();
    const run = runner.run(agent, 'Add 1 and 2', { conversation: 'c' });
    for await (const _ of run.events);
    const result = await run.result;
    const ms = performance.now() - start;
    if (result.text !== FINAL_TEXT || result.messages.length !== length + 4) throw new Error(`conversation-growth: ${result.messages.length} messages`);
    await store.truncate('c', length);
    return ms;
  };
}

/** The AI SDK given the same history (the app keeps it, as AI SDK apps do), one call, the final text. */
function theirsOnHistory(length: number): () => Promise<number> {
  const history = conversation(length).map(toModelMessage) as ModelMessage[];
  const model = streamingMock({ name: 'add_0', calls: 1, argsText, finalText: FINAL_TEXT });
  const tools = { add_0: validatedTool(schema, ({ a, b }) => a! + b!) };
  return async () => {
    const start = performance.now();
    const result = streamText({ model, tools, messages: [...history, { role: 'user', content: 'Add 1 and 2' }], stopWhen: stepCountIs(5) });
    for await (const part of result.fullStream) if (part.type === 'error') throw part.error;
    const ms = performance.now() - start;
    if ((await result.text) !== FINAL_TEXT) throw new Error('theirs: no final text');
    return ms;
  };
}

async function conversationFigures(): Promise<Measurement[]> {
  const long = 10_000;
  if (process.env.BENCH_OURS_ONLY === '1') {
    // For a profile of ours alone: 40 runs on the long conversation, no figure.
    const run = await oursOnHistory(long);
    for (let i = 0; i < 40; i++) await run();
    return [];
  }
  const ours = await paired(await oursOnHistory(long), theirsOnHistory(long), { warmup: 3, samples: 15 });
  const growth = await paired(await oursOnHistory(long), await oursOnHistory(10), { warmup: 3, samples: 15 });
  return [
    {
      name: 'conversation-growth',
      value: median(ours.a),
      unit: 'ms/run',
      baseline: 'the AI SDK (streamText, ai@6) given the same 10,000-message history, one call, the final text',
      baselineValue: median(ours.b),
      ratio: median(ours.a) / median(ours.b),
      target: '<= 0.5',
      note: `a run on a stored conversation of 10,000 messages (memory store, no context budget: the whole history is sent), one call then the final text; 15 rounds ±${pct(spread(ours.a))}/±${pct(spread(ours.b))}`,
    },
    {
      name: 'conversation-growth-10k-vs-10',
      value: median(growth.a),
      unit: 'ms/run',
      baseline: 'the same run on a 10-message conversation',
      baselineValue: median(growth.b),
      ratio: median(growth.a) / median(growth.b),
      target: null,
      note: `information: a run that sends the whole conversation reads all of it, so this grows with it; 15 rounds ±${pct(spread(growth.a))}/±${pct(spread(growth.b))}`,
    },
  ];
}

/** tools-1000-native, tools-1000-tag. */
export async function toolScaling(): Promise<Measurement[]> {
  return [await toolsFigure('native'), await toolsFigure('tags')];
}

/** runs-1000. */
export async function runScaling(): Promise<Measurement[]> {
  return [await runsFigure()];
}

/** conversation-growth (and its growth from 10 messages, for information). */
export async function conversationScaling(): Promise<Measurement[]> {
  return conversationFigures();
}
