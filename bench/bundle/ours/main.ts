// A demo-like page on ambi-web's page entry: the loop runs in the runner worker, a
// main-thread tool reads the page, the model is an OpenAI-compatible endpoint.
import { createWorkerRunner, defineTool, openAICompatible } from '../../../src/worker/index.js';

const readTitle = defineTool({
  name: 'read_title',
  description: 'The title of this page',
  parameters: { type: 'object', properties: {} },
  idempotent: true,
  call: () => document.title,
});

const runner = createWorkerRunner({
  engine: openAICompatible({ baseURL: 'http://localhost:11434/v1', model: 'qwen2.5:7b' }),
}).tool(readTitle);

const out = document.querySelector('#out')!;
document.querySelector<HTMLFormElement>('#ask')!.addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = new FormData(event.target as HTMLFormElement).get('q') as string;
  const run = runner.run(input);
  for await (const e of run.events) if (e.type === 'text_delta') out.textContent += e.text;
  out.textContent += `\n(${(await run.result).iterations} turns)`;
});
