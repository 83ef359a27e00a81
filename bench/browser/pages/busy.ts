// main-thread-busy: what a run costs the page's main thread: the model (bench/lib/scripted-model.ts,
// `busy`) streams 200 KB of prose in 4-character deltas and 20 calls of a page tool, then answers;
// the page reads every event, as an app does. `worker`: the loop in the runner worker
// (createWorkerRunner); `page`: the same loop on the page (Agent + ChatRunner), the baseline.
// The driver traces the page's main thread between the marks `busy-start` and `busy-end`.
import { Agent, ChatRunner, defineTool, openAICompatible, type Run } from '../../../src/index.js';
import { createWorkerRunner } from '../../../src/worker/index.js';
import { expose } from './expose.js';

export interface BusyOptions {
  mode: 'worker' | 'page';
}

export interface BusyResult {
  mode: BusyOptions['mode'];
  chars: number;
  notes: number;
  runMs: number;
}

const notes: string[] = [];
const note = defineTool({
  name: 'note',
  description: 'Keep a note on the page',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false },
  idempotent: false,
  call: ({ text }) => {
    notes.push(text);
    return 'kept';
  },
});

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

expose<BusyOptions, BusyResult>({
  async run({ mode }) {
    const engine = openAICompatible({ baseURL: new URL('v1', document.baseURI).href, model: 'busy' });
    let start: () => Run;
    if (mode === 'worker') {
      const runner = createWorkerRunner({ engine }).tool(note);
      start = () => runner.run('Take these notes', { maxCallsPerReply: 20 });
    } else {
      const agent = (await Agent.make(engine)).tool(note);
      const runner = new ChatRunner();
      start = () => runner.run(agent, 'Take these notes', { maxCallsPerReply: 20 });
    }
    // Setup (the worker started, the agent made) is outside the window.
    await nextFrame();
    await new Promise((resolve) => setTimeout(resolve, 300));
    notes.length = 0;
    performance.mark('busy-start');
    const t0 = performance.now();
    const run = start();
    let chars = 0;
    for await (const event of run.events) if (event.type === 'text_delta') chars += event.text.length;
    const result = await run.result;
    const runMs = performance.now() - t0;
    performance.mark('busy-end');
    await nextFrame();
    if (result.toolResults.length !== 20 || notes.length !== 20) throw new Error(`${mode}: ${result.toolResults.length} results, ${notes.length} notes`);
    return { mode, chars, notes: notes.length, runMs };
  },
});
