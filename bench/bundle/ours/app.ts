// A demo-like app on ambi-web's page entry: the loop runs in the runner worker, a main-thread
// tool reads the page, the model is an OpenAI-compatible endpoint (served with the page, as
// behind a proxy: bench/lib/scripted-model.ts scripts it). index.html (main.ts) validates
// arguments in the default mode, no-eval.html (no-eval.ts) in `no-eval`, which a strict CSP allows.
// `?ask=<question>` asks at once: the cold-start benchmark times createWorkerRunner to the answer
// (the marks `app-start` and `app-answer`); bundle-size asks through the form.
import { createWorkerRunner, defineTool, openAICompatible, type ValidationMode } from '../../../src/worker/index.js';

const readTitle = defineTool({
  name: 'read_title',
  description: 'The title of this page',
  parameters: { type: 'object', properties: {} },
  readOnly: true,
  call: () => document.title,
});

/** Start the app: the runner, the form, and a question in the URL asked at once. */
export function startApp(validation: ValidationMode): void {
  performance.mark('app-start');
  const runner = createWorkerRunner({
    engine: openAICompatible({ baseURL: new URL('v1', document.baseURI).href, model: 'qwen2.5:7b' }),
    validation,
  }).tool(readTitle);
  const out = document.querySelector('#out')!;
  async function ask(input: string): Promise<void> {
    const run = runner.run(input);
    for await (const e of run.events) if (e.type === 'text_delta') out.textContent += e.text;
    out.textContent += `\n(${(await run.result).iterations} turns)`;
    performance.mark('app-answer');
  }
  document.querySelector<HTMLFormElement>('#ask')!.addEventListener('submit', (event) => {
    event.preventDefault();
    void ask(new FormData(event.target as HTMLFormElement).get('q') as string);
  });
  const asked = new URLSearchParams(location.search).get('ask');
  if (asked) void ask(asked);
}
