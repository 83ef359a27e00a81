import { errorMessage } from '../errors/error-message.js';
import { ProgramError } from '../errors/program-error.js';
import { answerCall } from './host-calls.js';
import type { SandboxOutcome } from './protocol.js';
import { newQuickJSInstance } from './quickjs-instance.js';
import { runInQuickJS, type SandboxProgram } from './quickjs-program.js';
import type { ProgramTools } from './types.js';
import { wasmSource } from './wasm-location.js';

/**
 * Run a program on this thread, in a QuickJS instance of its own (dropped after). The interrupt
 * handler stops a tight loop at its deadline, but this thread is busy while the program runs
 * (a page's UI too), and only the deadline can stop it then: prefer a worker where there is one.
 */
export async function runInProcess(program: SandboxProgram, tools: ProgramTools, signal?: AbortSignal): Promise<SandboxOutcome> {
  const quickjs = await import('@jitl/quickjs-wasmfile-release-sync')
    .then((variant) => newQuickJSInstance(variant.default, program.limits.memoryBytes, wasmSource()))
    .catch((error: unknown) => {
      throw new ProgramError('sandbox_unavailable', `QuickJS did not load here: ${errorMessage(error)}`);
    });
  const calls = new AbortController();
  try {
    return await runInQuickJS(quickjs, program, { call: (name, args, index) => answerCall(tools, name, args, index, calls.signal) }, signal);
  } finally {
    calls.abort(new Error('the program ended'));
  }
}
