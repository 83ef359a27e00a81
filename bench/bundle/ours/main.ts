// A demo-like page on ambi-web's page entry: the loop runs in the runner worker, a
// main-thread tool reads the page, the model is an OpenAI-compatible endpoint (served
// with the page, as behind a proxy: bench/browser/app-loads.ts scripts it), and arguments
// are validated as the demo does (demo/ui/assistant.ts): `no-eval`, which a strict CSP allows.
import { createWorkerRunner, defineTool, openAICompatible } from '../../../src/worker/index.js';

const readTitle = defineTool({
  name: 'read_title',
  description: 'The title of this page',
  parameters: { type: 'object', properties: {} },
  idempotent: true,
  call: () => document.title,
});

const runner = createWorkerRunner({
  engine: openAICompatible({ baseURL: new URL('v1', document.baseURI).href, model: 'qwen2.5:7b' }),
  validation: 'no-eval',
}).tool(readTitle);

const out = document.querySelector('#out')!;
document.querySelector<HTMLFormElement>('#ask')!.addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = new FormData(event.target as HTMLFormElement).get('q') as string;
  const run = runner.run(input);
  for await (const e of run.events) if (e.type === 'text_delta') out.textContent += e.text;
  out.textContent += `\n(${(await run.result).iterations} turns)`;
});
