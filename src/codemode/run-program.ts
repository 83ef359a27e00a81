import { InvalidOptionError } from '../errors/invalid-option-error.js';
import { ProgramError } from '../errors/program-error.js';
import { resolveLimits } from './limits.js';
import type { SandboxOutcome } from './protocol.js';
import type { SandboxProgram } from './quickjs-program.js';
import type { ProgramOptions, ProgramOutput } from './types.js';
import { runInWorker } from './worker-sandbox.js';

/**
 * Run a model's program (the body of an async function: `await` and `return` at its top level)
 * in a QuickJS WebAssembly sandbox; `await tools.x(args)` calls `options.tools.call`. Resolves
 * with the returned JSON and the `console.log` lines; rejects with a `ProgramError`
 * (`program_timeout`, `program_error`, `aborted`, `sandbox_unavailable`).
 */
export async function runProgram(code: string, options: ProgramOptions): Promise<ProgramOutput> {
  const program = checkedProgram(code, options);
  if (options.signal?.aborted) throw new ProgramError('aborted', 'The program was aborted before it started.');
  const isolation = options.isolation ?? (typeof Worker === 'function' ? 'worker' : 'in-process');
  const outcome =
    isolation === 'worker'
      ? await runInWorker(program, options.tools, options.signal)
      : await (await import('./in-process.js')).runInProcess(program, options.tools, options.signal);
  return outputOf(outcome);
}

function checkedProgram(code: string, options: ProgramOptions): SandboxProgram {
  if (typeof code !== 'string') throw new InvalidOptionError('code', `must be a string, got ${typeof code}`);
  const tools = options?.tools;
  if (typeof tools?.call !== 'function') throw new InvalidOptionError('tools', 'must be an object with a call(name, args, context) function');
  if (!Array.isArray(tools.names) || tools.names.some((name) => typeof name !== 'string')) {
    throw new InvalidOptionError('tools.names', 'must be an array of tool names (strings)');
  }
  if (options.isolation !== undefined && options.isolation !== 'worker' && options.isolation !== 'in-process') {
    throw new InvalidOptionError('isolation', `must be 'worker' or 'in-process', got ${String(options.isolation)}`);
  }
  return { code, names: [...new Set(tools.names)], limits: resolveLimits(options) };
}

function outputOf(outcome: SandboxOutcome): ProgramOutput {
  if (!outcome.ok) throw new ProgramError(outcome.code, outcome.message, outcome.logs, outcome.line);
  return { result: JSON.parse(outcome.result), logs: outcome.logs };
}
