// answer-100k-tokens: a 100,000-token answer streamed from the scripted model (4-character deltas,
// bench/lib/scripted-model.ts) to the page. `ours`: createWorkerRunner with openAICompatible, as
// bench/bundle/ours has it; `theirs`: the AI SDK app's worker (bench/bundle/theirs/agent.worker.ts:
// streamText, @ai-sdk/openai-compatible, each text delta sent to the page over Comlink). The page
// takes each delta as the apps do, adding it to the answer (kept as a string here, shown once at
// the end, so both pay the same for it and neither pays for a growing text node). Timed from the
// question to the whole answer on the page.
import * as Comlink from 'comlink';
import { createWorkerRunner, defineTool, openAICompatible } from '../../../src/worker/index.js';
import type { AgentApi } from '../../bundle/theirs/agent.worker.js';
import { LONG_ANSWER_CHARS } from '../../lib/scripted-model.js';
import { expose } from './expose.js';

export interface AnswerOptions {
  side: 'ours' | 'theirs';
}

export interface AnswerResult {
  side: AnswerOptions['side'];
  /** ms from the question to the whole answer on the page. */
  ms: number;
  /** How many times the page was handed text. */
  pieces: number;
}

const readTitle = defineTool({
  name: 'read_title',
  description: 'The title of this page',
  parameters: { type: 'object', properties: {} },
  readOnly: true,
  call: () => document.title,
});

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const question = 'Tell me everything.';

expose<AnswerOptions, AnswerResult>({
  async run({ side }) {
    const baseURL = new URL('long-answer/v1', document.baseURI).href;
    let text = '';
    let pieces = 0;
    const take = (delta: string) => {
      text += delta;
      pieces++;
    };
    let ask: () => Promise<void>;
    let stop: () => void;
    if (side === 'ours') {
      const runner = createWorkerRunner({ engine: openAICompatible({ baseURL, model: 'qwen2.5:7b' }) }).tool(readTitle);
      ask = async () => {
        const run = runner.run(question);
        for await (const e of run.events) if (e.type === 'text_delta') take(e.text);
        await run.result;
      };
      stop = () => runner.close();
    } else {
      const worker = new Worker(new URL('../../bundle/theirs/agent.worker.ts', import.meta.url), { type: 'module' });
      const agent = Comlink.wrap<AgentApi>(worker);
      const page = Comlink.proxy({ readTitle: () => document.title });
      ask = async () => {
        let whole: () => void = () => {};
        const all = new Promise<void>((resolve) => (whole = resolve));
        // The app sends each delta without waiting for the page (`void onText(text)`), on a port of
        // its own: the answer is whole once every delta has arrived, which may be after ask() resolves.
        const onText = Comlink.proxy((delta: string) => {
          take(delta);
          if (text.length >= LONG_ANSWER_CHARS) whole();
        });
        await Promise.all([agent.ask(question, baseURL, page, onText), all]);
      };
      stop = () => worker.terminate();
    }
    // Setup (the worker started and loaded) is outside the window.
    await nextFrame();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const t0 = performance.now();
    await ask();
    const ms = performance.now() - t0;
    document.body.textContent = text;
    await nextFrame();
    stop();
    if (text.length !== LONG_ANSWER_CHARS) throw new Error(`${side}: ${text.length} characters, not ${LONG_ANSWER_CHARS}`);
    return { side, ms, pieces };
  },
});
