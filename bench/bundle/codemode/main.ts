// bundle-codemode: a page that runs one program in Code Mode's sandbox (its own worker).
import { runProgram } from '../../../src/codemode/run-program.js';

const tools = { names: ['add'], call: async (_name: string, args: unknown) => (args as { a: number }).a + 1 };
const out = document.querySelector('#out')!;
out.textContent = JSON.stringify(await runProgram('return await tools.add({ a: 1 });', { tools }));
