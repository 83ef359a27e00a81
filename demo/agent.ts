// The worker-runtime example: a scripted model drives a DOM tool on the page and a worker tool.
import { createWorkerRunner, defineTool, scriptedEngine, type RunEvent } from '../src/worker/index.js';

const readSection = defineTool({
  name: 'read_section',
  description: 'Read the text of an element on the page',
  parameters: { type: 'object', properties: { selector: { type: 'string' } }, required: ['selector'] },
  idempotent: true,
  call: ({ selector }) => document.querySelector(selector)?.textContent ?? null,
});

function describe(event: RunEvent): string | undefined {
  switch (event.type) {
    case 'tool_started': return `${event.name} started (attempt ${event.attempt})`;
    case 'tool_finished': return `${event.result.name} ${event.result.ok ? 'finished' : `failed: ${event.result.error.code}`}`;
    case 'run_finished': return 'run finished';
    case 'run_failed': return `run failed: ${event.error.message}`;
    default: return undefined;
  }
}

/** Wire the "Run the agent" button. */
export function mountAgentExample(): void {
  const timeline = document.querySelector<HTMLOListElement>('#timeline')!;
  const answer = document.querySelector<HTMLPreElement>('#answer')!;
  document.querySelector('#run-agent')!.addEventListener('click', async () => {
    timeline.replaceChildren();
    answer.textContent = '';
    const sample = document.querySelector('#sample')?.textContent ?? '';
    const runner = createWorkerRunner({
      engine: scriptedEngine([
        { text: 'Reading the section. ', toolCalls: [{ name: 'read_section', arguments: { selector: '#sample' } }] },
        { toolCalls: [{ name: 'word_stats', arguments: { text: sample } }] },
        'The section has words; the tool results above give the counts.',
      ]),
    }).tool(readSection);
    try {
      await runner.workerTools(() => new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module' }));
      const run = runner.run('How many words does the sample have?');
      for await (const event of run.events) {
        const line = describe(event);
        if (line) timeline.append(Object.assign(document.createElement('li'), { textContent: line }));
      }
      const result = await run.result;
      answer.textContent = JSON.stringify({ text: result.text, toolResults: result.toolResults.map((r) => (r.ok ? r.output : r.error)) }, null, 2);
      answer.dataset.state = 'done';
    } catch (error) {
      answer.textContent = String(error);
      answer.dataset.state = 'failed';
    } finally {
      runner.close();
    }
  });
}
