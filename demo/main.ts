// A live example of the tool core on the page: one call, decoded, validated and run.
import { defineTool, ToolManager, ToolRegistry, type ToolCall } from '../src/index.js';
import { mountAgentExample } from './agent.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  idempotent: true,
  call: ({ a, b }) => a + b,
});

const slow = defineTool({
  name: 'slow',
  description: 'Never finishes on its own; shows the timeout and retry policy',
  parameters: { type: 'object' },
  idempotent: true,
  timeoutMs: 200,
  maxRetries: 2,
  retryDelayMs: 100,
  call: (_args, { signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
});

const manager = new ToolManager(new ToolRegistry().register(add).register(slow));
const output = document.querySelector<HTMLPreElement>('#result')!;
const argsInput = document.querySelector<HTMLTextAreaElement>('#args')!;

async function show(call: ToolCall): Promise<void> {
  output.textContent = `running ${call.name}…`;
  const log: string[] = [];
  const result = await manager.execute(call, {
    onRetry: ({ nextAttempt, delayMs }) => log.push(`timeout; retry ${nextAttempt} in ${delayMs} ms`),
  });
  output.textContent = [...log, JSON.stringify(result, null, 2)].join('\n');
  output.dataset.state = result.ok ? 'ok' : result.error.code;
}

document.querySelector('#run')!.addEventListener('click', () => {
  void show({ id: crypto.randomUUID(), name: 'add', arguments: argsInput.value });
});
document.querySelector('#run-slow')!.addEventListener('click', () => {
  void show({ id: crypto.randomUUID(), name: 'slow', arguments: {} });
});

mountAgentExample();
