// conversation-growth: a run on a stored conversation of 10,000 messages, sent whole, through both
// SDKs' real OpenAI-compatible providers to the same local server (bench/lib/local-completions.ts):
// ours `openAICompatible` (default config: the memory store, no context budget), theirs ai@7's
// `streamText` with `@ai-sdk/openai-compatible`, given the same history as `ModelMessage`s (an AI
// SDK app keeps its history itself). Each run: one call of `add_0`, its result, the final text.
// conversation-growth-10k-vs-10 (information): ours on 10,000 messages over ours on 10.
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { isStepCount, streamText, type ModelMessage } from 'ai';
import { Agent, ChatRunner, defineTool, MemoryConversationStore, openAICompatible, type Tool } from '../../src/index.js';
import { validatedTool } from '../lib/ai-sdk-mock.js';
import { now } from '../lib/clock.js';
import { conversation, toModelMessage } from '../lib/conversation.js';
import { startCompletions } from '../lib/local-completions.js';
import { paired, pairedFigure, spread, type Measurement } from '../lib/stats.js';

const schema = {
  type: 'object',
  properties: { a: { type: 'number', description: 'The first number' }, b: { type: 'number', description: 'The second number' } },
  required: ['a', 'b'],
  additionalProperties: false,
} as const;
const FINAL_TEXT = 'Done.';
const TOOLS = 10;
const LONG = 10_000;
const ROUNDS = 15;
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

/** The same ten tools on both sides, `add_0` the one called. */
const ourTools = (): Tool[] =>
  Array.from({ length: TOOLS }, (_, i) =>
    defineTool({ name: `add_${i}`, description: `Add two numbers (variant ${i})`, parameters: schema, idempotent: true, call: ({ a, b }) => a + b }),
  );
const theirTools = () => Object.fromEntries(Array.from({ length: TOOLS }, (_, i) => [`add_${i}`, validatedTool(schema, ({ a, b }) => a! + b!)]));

/** Ours: a run on a stored conversation of `length` messages; the conversation is cut back to `length` after it, outside the timing. */
async function ours(baseURL: string, length: number): Promise<() => Promise<number>> {
  const store = new MemoryConversationStore();
  await store.append('c', conversation(length));
  const agent = await Agent.make(openAICompatible({ baseURL, model: 'm' }), { conversations: store });
  for (const tool of ourTools()) agent.tool(tool);
  const runner = new ChatRunner(5);
  return async () => {
    const start = now();
    const run = runner.run(agent, 'Add 1 and 2', { conversation: 'c' });
    for await (const _ of run.events);
    const result = await run.result;
    const ms = now() - start;
    // The server's usage was read (ours asks for it, as by default), not estimated.
    if (result.text !== FINAL_TEXT || result.messages.length !== length + 4 || !result.toolResults[0]?.ok || result.usage?.estimated !== undefined)
      throw new Error(`conversation-growth, ours: ${result.messages.length} messages, "${result.text}"`);
    await store.truncate('c', length);
    return ms;
  };
}

/** Theirs: streamText through @ai-sdk/openai-compatible on the same history, every part of fullStream read. */
function theirs(baseURL: string, length: number): () => Promise<number> {
  const [system, ...history] = conversation(length);
  const messages = history.map(toModelMessage) as ModelMessage[];
  const model = createOpenAICompatible({ name: 'local', baseURL })('m');
  const tools = theirTools();
  return async () => {
    const start = now();
    const result = streamText({
      model,
      tools,
      instructions: system!.content as string,
      messages: [...messages, { role: 'user', content: 'Add 1 and 2' }],
      stopWhen: isStepCount(5),
    });
    let results = 0;
    for await (const part of result.fullStream) {
      if (part.type === 'error') throw part.error;
      if (part.type === 'tool-result') results++;
    }
    const ms = now() - start;
    if ((await result.text) !== FINAL_TEXT || results !== 1) throw new Error(`conversation-growth, theirs: ${results} results`);
    return ms;
  };
}

/** conversation-growth and conversation-growth-10k-vs-10. */
export async function conversationGrowth(): Promise<Measurement[]> {
  const server = await startCompletions({ name: 'add_0', args: '{"a":1,"b":2}', finalText: FINAL_TEXT });
  try {
    if (process.env.BENCH_OURS_ONLY === '1') {
      // For a profile of ours alone: 40 runs on the long conversation, no figure.
      const run = await ours(server.baseURL, LONG);
      for (let i = 0; i < 40; i++) await run();
      return [];
    }
    const vsTheirs = await paired(await ours(server.baseURL, LONG), theirs(server.baseURL, LONG), { warmup: 3, samples: ROUNDS });
    const growth = await paired(await ours(server.baseURL, LONG), await ours(server.baseURL, 10), { warmup: 3, samples: ROUNDS });
    const rounds = `${ROUNDS} rounds ±${pct(spread(vsTheirs.a))}/±${pct(spread(vsTheirs.b))}`;
    return [
      {
        name: 'conversation-growth',
        unit: 'ms/run',
        baseline:
          'ai@7 streamText with @ai-sdk/openai-compatible, given the same 10,000-message history as ModelMessages, same local server, one call, the final text',
        ...pairedFigure(vsTheirs.a, vsTheirs.b),
        target: '<= 0.5',
        note: `ours: openAICompatible, a stored conversation of 10,000 messages (memory store, no context budget: the whole history is sent), one call then the final text: two requests of about ${(JSON.stringify(conversation(LONG)).length / 1e6).toFixed(1)} MB each; both with the same ${TOOLS} tools, to one local server (${server.requests()} requests answered), which ends a stream with a usage chunk when asked, as OpenAI's API does (ours asks by default, theirs' provider does not); ${rounds}`,
      },
      {
        name: 'conversation-growth-10k-vs-10',
        unit: 'ms/run',
        baseline: 'the same run on a 10-message conversation',
        ...pairedFigure(growth.a, growth.b),
        target: null,
        note: `information: a run that sends the whole conversation reads and sends all of it, so this grows with it; ${ROUNDS} rounds ±${pct(spread(growth.a))}/±${pct(spread(growth.b))}`,
      },
    ];
  } finally {
    await server.close();
  }
}
