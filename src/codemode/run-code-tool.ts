import type { SandboxLimits } from './protocol.js';
import { type DeclaredTool, toolDeclarations } from './tool-declarations.js';

export { RUN_CODE_PARAMETERS, RUN_CODE_TOOL } from './run-code-definition.js';

/** `run_code`'s description for the model: how a program runs, what it may use, its limits, and the tools as TypeScript. */
export function runCodeDescription(tools: readonly DeclaredTool[], limits: SandboxLimits): string {
  return [
    'Run a JavaScript program that calls tools as async functions: one program can make many calls (in order, or together with Promise.all), work with their results, and return only what is needed.',
    'The program is the body of an async function: use `await` and `return` at its top level, e.g. `const a = await tools.some_tool({ x: 1 }); return a.items.length;`.',
    "What it returns (JSON) is this tool's output as `{ result, logs }`, `logs` being its console.log lines.",
    'A tool call that fails throws an Error whose `code` says why (e.g. "denied", "invalid_arguments", "timeout"): catch it to go on, or let it end the program.',
    'The program has no network, no DOM, no timers, no imports and no storage: only `tools`, `console` and JavaScript built-ins.',
    `Limits: ${limits.timeoutMs} ms of running time (waiting for tool calls does not count), ${Math.round(limits.memoryBytes / 1048576)} MiB of memory, ${limits.maxToolCalls} tool calls; output and logs past ${limits.maxOutputChars} characters are cut.`,
    'The tools:',
    '```ts',
    toolDeclarations(tools),
    '```',
  ].join('\n');
}
