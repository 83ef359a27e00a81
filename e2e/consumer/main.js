// A consumer of the packed package: the page facade only, the loop in ambi-web's runner worker.
import { createWorkerRunner, defineTool, scriptedEngine } from 'ambi-web/worker';

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

const result = document.querySelector('#result');

try {
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
  const { text, toolResults } = await runner.run('add 2 and 3, then say where the realm tool runs').result;
  result.textContent = JSON.stringify({ text, toolResults: toolResults.map(({ name, ok, output, error }) => ({ name, ok, output, error })) });
  result.dataset.state = 'ok';
} catch (error) {
  result.textContent = `${error?.code ?? 'error'}: ${error?.message ?? error}`;
  result.dataset.state = 'error';
}
