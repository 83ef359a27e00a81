// Runs programs in Code Mode's sandbox as the URL asks and shows what they gave in #result.
// The page starts them itself, so the CSP applies (code DevTools evaluates may be let through).
// `?probe=eval` instead tries `new Function` on the page: the spec's proof that a violation
// would be seen.
import { runProgram } from '../../src/codemode/run-program.js';
import type { ProgramOptions } from '../../src/codemode/types.js';

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
