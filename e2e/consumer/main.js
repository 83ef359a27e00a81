// A consumer of the packed package: the page facade only, the loop in ambi-web's runner worker.
// `?case=` picks what the page runs: the quick start (default), a zod tool, `no-eval`, a tool with a bug, a local model.
import { createWorkerRunner, defineTool, localModel, scriptedEngine } from 'ambi-web/worker';

const result = document.querySelector('#result');

// A main-thread tool: it writes the page and reads its answer back from it.
const add = defineTool({
  name: 'add',
  description: 'Add two numbers and show the sum on the page',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  idempotent: true,
  call: ({ a, b }) => {
    const sum = document.querySelector('#sum');
    sum.textContent = String(a + b);
    return Number(sum.textContent);
  },
});

/** The run's outcome as plain data the test reads from the page. */
const summary = ({ text, toolResults }) => ({ text, toolResults: toolResults.map(({ name, ok, output, error }) => ({ name, ok, output, error })) });

const cases = {
  async quickstart() {
    const runner = createWorkerRunner({
      engine: scriptedEngine([
        {
          toolCalls: [
            { name: 'add', arguments: { a: 2, b: 3 } },
            { name: 'realm', arguments: {} },
          ],
        },
        'The sum is 5.',
      ]),
    }).tool(add);
    await runner.workerTools(() => new Worker(new URL('./tools.worker.js', import.meta.url), { type: 'module' }));
    return summary(await runner.run('add 2 and 3, then say where the realm tool runs').result);
  },

  // A tool whose parameters are a zod schema: its default and its refinement apply on the page.
  async zod() {
    const { z } = await import('zod');
    const search = defineTool({
      name: 'search',
      description: 'Search notes',
      idempotent: true,
      parameters: z.object({ query: z.string().min(1), limit: z.number().int().default(10) }),
      call: ({ query, limit }) => `${limit} notes about ${query}`,
    });
    const runner = createWorkerRunner({
      engine: scriptedEngine([
        {
          toolCalls: [
            { name: 'search', arguments: { query: '' } },
            { name: 'search', arguments: { query: 'cats' } },
          ],
        },
        'Done.',
      ]),
    }).tool(search);
    return summary(await runner.run('find notes about cats').result);
  },

  // Served under a CSP without 'unsafe-eval' (vite.config.js): validation never attempts eval.
  async 'no-eval'() {
    const runner = createWorkerRunner({
      validation: 'no-eval',
      engine: scriptedEngine([
        {
          toolCalls: [
            { name: 'add', arguments: { a: 'two', b: 3 } },
            { name: 'add', arguments: { a: 2, b: 3 } },
          ],
        },
        'The sum is 5.',
      ]),
    }).tool(add);
    return summary(await runner.run('add 2 and 3').result);
  },

  // A page tool with a bug, called twice: the model reads `crashed`; in development (the dev
  // server) the console says it once, with the stack; a production build says nothing.
  async 'tool-bug'() {
    const buggy = defineTool({
      name: 'buggy',
      description: 'Count the notes (it has a bug)',
      parameters: { type: 'object', properties: {} },
      idempotent: false,
      call: () => {
        const notes = JSON.parse('null');
        return notes.length;
      },
    });
    const runner = createWorkerRunner({
      engine: scriptedEngine([{ toolCalls: [{ name: 'buggy', arguments: {} }] }, { toolCalls: [{ name: 'buggy', arguments: {} }] }, 'It failed twice.']),
    }).tool(buggy);
    return summary(await runner.run('count the notes').result);
  },

  // A GGUF model run by llama.cpp (wasm) in the runner worker; the tiny test model writes nonsense, so only the shape is checked.
  async local() {
    const runner = createWorkerRunner({ engine: localModel({ source: new URL('./tiny.gguf', location.href).href, contextSize: 512, maxTokens: 16 }) });
    const { text, iterations } = await runner.run('Hello').result;
    return { textType: typeof text, iterations };
  },
};

try {
  const name = new URLSearchParams(location.search).get('case') ?? 'quickstart';
  result.textContent = JSON.stringify(await cases[name]());
  result.dataset.state = 'ok';
} catch (error) {
  result.textContent = `${error?.code ?? 'error'}: ${error?.message ?? error}`;
  result.dataset.state = 'error';
}
