// The strict-CSP test page: the same tool calls, valid and invalid, validated on the page (a
// ToolManager) and in a runner worker (a WorkerRunner with a scripted engine), in the mode
// the test asks for (in the URL). Results and the runner worker's CSP violations go into #result.
import { z } from 'zod';
import {
  createWorkerRunner,
  defineTool,
  scriptedEngine,
  ToolManager,
  ToolRegistry,
  type ToolCall,
  type ToolResult,
  type ValidationMode,
} from '../../src/index.js';
import { CALLS_BEFORE_COMPILING } from '../../src/validation/tool-args-check.js';
import type { Violation } from './report-violations.js';

// zod compiles its object parsers with `new Function` (and probes for it) unless told not to.
z.config({ jitless: true });

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false },
  idempotent: true,
  call: ({ a, b }) => a + b,
});

const label = defineTool({
  name: 'label',
  description: 'Label a note',
  parameters: z
    .object({ text: z.string().min(2), count: z.number().int().default(1) })
    .refine((v) => v.text !== 'nope', { message: 'that label is reserved', path: ['text'] }),
  idempotent: true,
  call: ({ text, count }) => `${text} x${count}`,
});

const calls: ToolCall[] = [
  { id: 'valid', name: 'add', arguments: { a: 2, b: 3 } },
  { id: 'wrong-type', name: 'add', arguments: { a: 1, b: 'two' } },
  { id: 'missing', name: 'add', arguments: { a: 1 } },
  { id: 'extra', name: 'add', arguments: '{"a":1,"b":2,"c":3}' },
  { id: 'zod-valid', name: 'label', arguments: { text: 'urgent' } },
  { id: 'zod-json-schema', name: 'label', arguments: { text: 'x', count: 1.5 } },
  { id: 'zod-refinement', name: 'label', arguments: { text: 'nope' } },
];

type Outcome = Pick<ToolResult, 'id' | 'ok' | 'attempts'> & { output?: unknown; error?: unknown };
const outcome = (result: ToolResult): Outcome =>
  result.ok
    ? { id: result.id, ok: true, attempts: result.attempts, output: result.output }
    : { id: result.id, ok: false, attempts: result.attempts, error: result.error };

/**
 * Validate and run the calls with a ToolManager on this page. `busy`: `add` is called enough
 * times first for 'auto' to compile it with ajv (in the background; awaited here until ajv's
 * module has loaded and the realm knows whether it allows eval), then the calls.
 */
async function inPage(validation: ValidationMode, busy: boolean): Promise<Outcome[]> {
  const manager = new ToolManager(new ToolRegistry({ validation }).register(add).register(label));
  if (busy) {
    for (let i = 0; i < CALLS_BEFORE_COMPILING; i++) await manager.execute({ id: `warm-${i}`, name: 'add', arguments: { a: i, b: 1 } });
    // The tool's compile starts once ajv's module has loaded: wait for the same module, then a task.
    await import('../../src/validation/ajv/ajv-validator.js');
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return Promise.all(calls.map(async (call) => outcome(await manager.execute(call))));
}

/** Run the same calls from a runner worker: validated there, the tools called back on this page. */
async function inWorker(validation: ValidationMode): Promise<Outcome[]> {
  const runner = createWorkerRunner({
    engine: scriptedEngine([{ toolCalls: calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })) }, 'done']),
    validation,
    worker: () => new Worker(new URL('./runner.worker.ts', import.meta.url), { type: 'module' }),
  });
  try {
    return (await runner.tool(add).tool(label).run('go').result).toolResults.map(outcome);
  } finally {
    // Ask before closing: the reporter lives in that worker.
    violationsInWorker = await askWorker();
    runner.close();
  }
}

let violationsInWorker: Violation[] = [];

function askWorker(): Promise<Violation[]> {
  const channel = new BroadcastChannel('csp-test');
  return new Promise((resolve) => {
    channel.addEventListener('message', (event) => {
      if (event.data?.type !== 'violations') return;
      channel.close();
      resolve(event.data.violations);
    });
    channel.postMessage('report');
  });
}

/**
 * Run what the URL asks (`?realm=page|worker&mode=auto|no-eval`) and show it in #result.
 * Started by the page itself, not by the test: DevTools' evaluate may run code that CSP
 * would refuse, so the test only reads what the page did.
 */
async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const mode = params.get('mode') as ValidationMode;
  const output = document.querySelector<HTMLPreElement>('#result')!;
  try {
    const results = params.get('realm') === 'worker' ? await inWorker(mode) : await inPage(mode, params.has('busy'));
    output.textContent = JSON.stringify({ results, workerViolations: violationsInWorker });
    output.dataset.state = 'done';
  } catch (error) {
    output.textContent = String(error);
    output.dataset.state = 'failed';
  }
}

void main();
