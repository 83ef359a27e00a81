// untrusted-hold-overhead: one run in `untrusted: 'hold'` mode against the same run in `'mark'`
// mode, no inspect_held: a page of 20 KB read by an untrusted tool, then a read-only call, then
// an answer that names what was read, on a stored conversation (memory). Hold mode keeps the page
// in the conversation's held values and sends a handle; mark mode sends the page, marked. Both
// models answer at once, so what is timed is the loop with each mode's extension.
import { Agent, ChatRunner, defineTool, type Engine, MemoryConversationStore } from '../../src/index.js';
import type { EngineEvent, EngineRequest } from '../../src/extend/index.js';
import { median, medianUpper95, paired, spread, type Measurement } from '../lib/stats.js';

const SAMPLES = 21;
const RUNS_PER_ROUND = 50;
const PAGE = `A page of someone else's words. ${'lorem ipsum dolor sit amet '.repeat(740)}`;

/** The model: reads the page, looks a word up, then answers naming what it read (the handle's id in hold mode). */
class Planner implements Engine {
  readonly nativeTools = true;
  async *stream(request: EngineRequest): AsyncIterable<EngineEvent> {
    const results = request.messages.length - request.messages.findLastIndex((m) => m.role === 'user') - 1;
    yield { type: 'usage', usage: { promptTokens: 100, completionTokens: 5, totalTokens: 105 } };
    if (results === 0) yield { type: 'tool_call', call: { id: 'r1', name: 'read_page', arguments: {} } };
    else if (results === 2) yield { type: 'tool_call', call: { id: 'l1', name: 'lookup', arguments: { word: 'ipsum' } } };
    else yield { type: 'text', text: 'The page ($1) says lorem ipsum.' };
    yield { type: 'finish', reason: results === 0 || results === 2 ? 'tool_calls' : 'stop' };
  }
}

const readPage = defineTool({
  name: 'read_page',
  description: 'Read the page',
  parameters: { type: 'object', properties: {} },
  readOnly: true,
  untrusted: true,
  call: () => PAGE,
});
const lookup = defineTool({
  name: 'lookup',
  description: 'Look a word up',
  parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  readOnly: true,
  call: ({ word }) => `a word: ${word}`,
});

async function runs(mode: 'mark' | 'hold'): Promise<() => Promise<number>> {
  const conversations = new MemoryConversationStore();
  const agent = (await Agent.make(new Planner(), { untrusted: mode, conversations })).tool(readPage).tool(lookup);
  const runner = new ChatRunner();
  let n = 0;
  const one = async () => {
    // A new conversation per run: the same work each time, whatever the store holds.
    const result = await runner.run(agent, 'What does the page say?', { conversation: `${mode}-${n++}` }).result;
    if (result.toolResults.length !== 2 || !result.text.includes('$1')) throw new Error(`${mode}: ${JSON.stringify(result).slice(0, 300)}`);
    if (mode === 'hold' && result.held?.[0]?.value !== PAGE) throw new Error('hold: the answer lost its held value');
  };
  return async () => {
    const start = performance.now();
    for (let i = 0; i < RUNS_PER_ROUND; i++) await one();
    return ((performance.now() - start) * 1000) / RUNS_PER_ROUND;
  };
}

export async function untrustedHoldOverhead(): Promise<Measurement[]> {
  const times = await paired(await runs('hold'), await runs('mark'), { warmup: 4, samples: SAMPLES });
  const value = median(times.a);
  const baselineValue = median(times.b);
  const ratios = times.a.map((a, i) => a / times.b[i]!);
  return [
    {
      name: 'untrusted-hold-overhead',
      value,
      unit: 'µs per run (20 KB page read, one read-only call, an answer)',
      baseline: "the same run in untrusted: 'mark' mode (the page sent, marked), same agent setup and memory store",
      baselineValue,
      ratio: value / baselineValue,
      target: '<= 1.1',
      note: `per-round ratio median ${median(ratios).toFixed(3)}, upper 95% ${medianUpper95(ratios).toFixed(3)}; ±${pct(spread(times.a))} / ±${pct(spread(times.b))}; ${RUNS_PER_ROUND} runs x ${SAMPLES} rounds; no inspect_held`,
    },
  ];
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
