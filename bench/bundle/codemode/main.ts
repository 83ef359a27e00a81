// bundle-codemode: a page that runs programs in Code Mode's sandbox (its own worker each). It
// writes its timings on <body>: `data-start` (ms for a program that returns at once: the
// worker started, QuickJS fetched and compiled) and `data-call` (µs per awaited call, timed
// inside a program of 1,000 calls).
import { runProgram } from '../../../src/codemode/run-program.js';

const tools = { names: ['add'], call: async (_name: string, args: unknown) => (args as { a: number }).a + 1 };
const CALLS = 1_000;

const started = performance.now();
await runProgram('return 1;', { tools });
const start = performance.now() - started;
const { result } = await runProgram(
  `let a = 0;\nconst t = Date.now();\nfor (let i = 0; i < ${CALLS}; i++) a = await tools.add({ a });\nreturn { a, ms: Date.now() - t };`,
  { tools },
);
document.querySelector('#out')!.textContent = JSON.stringify(result);
Object.assign(document.body.dataset, { start: start.toFixed(1), call: (((result as { ms: number }).ms * 1000) / CALLS).toFixed(1) });
