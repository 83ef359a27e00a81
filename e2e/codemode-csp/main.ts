// Runs programs in Code Mode's sandbox as the URL asks and shows what they gave in #result.
// The page starts them itself, so the CSP applies (code DevTools evaluates may be let through).
// `?probe=eval` instead tries `new Function` on the page: the spec's proof that a violation
// would be seen.
import { runProgram } from '../../src/codemode/run-program.js';
import type { ProgramOptions } from '../../src/codemode/types.js';
import { createWorkerRunner, defineTool, type ParametersSchema, scriptedEngine } from '../../src/index.js';

const tools: ProgramOptions['tools'] = {
  names: ['add', 'read-note'],
  call: async (name, args) => {
    if (name === 'add') return (args as { a: number; b: number }).a + (args as { a: number; b: number }).b;
    throw Object.assign(new Error('no such note'), { code: 'not_found' });
  },
};

const programs = [
  "const sum = await tools.add({ a: 2, b: 3 });\nconsole.log('sum', sum);\nreturn sum * 10;",
  "try { await tools['read-note']({ id: 'x' }); } catch (e) { return e.code; }",
  'return [typeof fetch, typeof WebAssembly, Function("return typeof document")(), eval("1 + 1")];',
  'while (true) {}',
];

async function outcomeOf(code: string, isolation: ProgramOptions['isolation']): Promise<unknown> {
  try {
    return await runProgram(code, { tools, isolation, timeoutMs: 300 });
  } catch (error) {
    return { code: (error as { code?: string }).code, message: String((error as Error).message) };
  }
}

/**
 * `?probe=runner`: Code Mode wired into a run: a WorkerRunner (its runner worker, IndexedDB, no-eval
 * validation) whose model writes one program; the program's calls cross to this page's tools, one
 * of them approved here. What comes back: the program's output and the calls under it.
 */
async function runnerOutcome(): Promise<unknown> {
  const code = "const sum = await tools.add({ a: 2, b: 3 }); const saved = await tools.save({ text: 'sum ' + sum }); return { sum, saved };";
  const runner = createWorkerRunner({
    engine: scriptedEngine([{ toolCalls: [{ id: 'prog', name: 'run_code', arguments: { code } }] }, 'Saved.']),
    codeMode: true,
    validation: 'no-eval',
    database: `codemode-csp-${crypto.randomUUID()}`,
  });
  const schema = (properties: Record<string, unknown>) => ({ type: 'object', properties, additionalProperties: false }) as ParametersSchema;
  runner.tool(
    defineTool({
      name: 'add',
      description: 'Add',
      parameters: schema({ a: { type: 'number' }, b: { type: 'number' } }),
      readOnly: true,
      call: ({ a, b }: { a: number; b: number }) => a + b,
    }),
  );
  runner.tool(
    defineTool({
      name: 'save',
      description: 'Save',
      parameters: schema({ text: { type: 'string' } }),
      idempotent: false,
      needsApproval: true,
      call: ({ text }: { text: string }) => `saved ${text}`,
    }),
  );
  const run = runner.run('add and save', { conversation: 'c' });
  const nested: string[] = [];
  for await (const event of run.events) {
    if (event.type === 'approval_requested') run.approve(event.call.id);
    if (event.type === 'tool_finished' && event.parentCallId) nested.push(`${event.parentCallId}/${event.result.name}`);
  }
  const result = await run.result;
  runner.close();
  return { output: result.toolResults[0]?.ok ? result.toolResults[0].output : result.toolResults[0], nested, text: result.text };
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const output = document.querySelector<HTMLPreElement>('#result')!;
  try {
    if (params.get('probe') === 'eval') {
      let refused = false;
      try {
        new Function('return 1')();
      } catch {
        refused = true;
      }
      output.textContent = JSON.stringify({ refused });
    } else if (params.get('probe') === 'runner') {
      output.textContent = JSON.stringify(await runnerOutcome());
    } else {
      const isolation = params.get('isolation') === 'in-process' ? 'in-process' : 'worker';
      const results = [];
      for (const code of programs) results.push(await outcomeOf(code, isolation));
      output.textContent = JSON.stringify(results);
    }
    output.dataset.state = 'done';
  } catch (error) {
    output.textContent = String(error);
    output.dataset.state = 'failed';
  }
}

void main();
