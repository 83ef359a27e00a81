import { errorMessage } from '../errors/error-message.js';
import { ProgramError } from '../errors/program-error.js';
import { answerCall } from './host-calls.js';
import { QuickJSLoader } from './load-quickjs.js';
import type { SandboxOutcome } from './protocol.js';
import { runInQuickJS, type SandboxProgram } from './quickjs-program.js';
import type { ProgramTools } from './types.js';

/** QuickJS in this realm: the package's release build, its wasm located as the package says. */
const loader = new QuickJSLoader(async () => (await import('@jitl/quickjs-wasmfile-release-sync')).default);

/**
 * Run a program on this thread: the interrupt handler stops a tight loop at its deadline, but
 * this thread is busy while the program runs (a page's UI too): prefer a worker where there is one.
 */
export async function runInProcess(program: SandboxProgram, tools: ProgramTools, signal?: AbortSignal): Promise<SandboxOutcome> {
  const quickjs = await loader.load().catch((error: unknown) => {
    throw new ProgramError('sandbox_unavailable', `QuickJS did not load here: ${errorMessage(error)}`);
  });
  const calls = new AbortController();
  try {
    const run = await runInQuickJS(quickjs, program, { call: (name, args, index) => answerCall(tools, name, args, index, calls.signal) }, signal);
    if (run.broken) loader.drop(quickjs);
    return run.outcome;
  } finally {
    calls.abort(new Error('the program ended'));
  }
}
