// The same app on the Vercel AI SDK (ai@7, the current major), its loop in a Web Worker as ours
// is: the page starts the worker and talks to it over Comlink (the library ours uses), the
// worker runs `streamText` with the OpenAI-compatible provider and a zod-validated tool whose
// `execute` calls the page's function over Comlink, and streams the text back. Same marks and
// `?ask=` as bench/bundle/ours/main.ts.
import * as Comlink from 'comlink';
import type { AgentApi } from './agent.worker.js';

performance.mark('app-start');
const agent = Comlink.wrap<AgentApi>(new Worker(new URL('./agent.worker.ts', import.meta.url), { type: 'module' }));
const page = Comlink.proxy({ readTitle: () => document.title });

const out = document.querySelector('#out')!;
async function ask(input: string): Promise<void> {
  const turns = await agent.ask(
    input,
    new URL('v1', document.baseURI).href,
    page,
    Comlink.proxy((text: string) => {
      out.textContent += text;
    }),
  );
  out.textContent += `\n(${turns} turns)`;
  performance.mark('app-answer');
}

document.querySelector<HTMLFormElement>('#ask')!.addEventListener('submit', (event) => {
  event.preventDefault();
  void ask(new FormData(event.target as HTMLFormElement).get('q') as string);
});
const asked = new URLSearchParams(location.search).get('ask');
if (asked) void ask(asked);
