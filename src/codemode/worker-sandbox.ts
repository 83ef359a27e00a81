import { ProgramError } from '../errors/program-error.js';
import { answerCall } from './host-calls.js';
import type { SandboxOutcome, SandboxToHost, StartMessage } from './protocol.js';
import type { SandboxProgram } from './quickjs-program.js';
import type { ProgramTools } from './types.js';

/** What the host needs of a worker: a `Worker`, or a stand-in a test starts. */
export interface SandboxWorker {
  postMessage(message: StartMessage | { type: 'answer'; id: number; answer: unknown }): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<SandboxToHost>) => void): void;
  addEventListener(type: 'error' | 'messageerror', listener: (event: Event) => void): void;
  terminate(): void;
}

/** How long a sandbox may take to load QuickJS before it counts as unavailable. */
const START_TIMEOUT_MS = 30_000;
/**
 * Past the program's deadline, how long the host waits for the sandbox's own interrupt before
 * it terminates the worker: QuickJS checks its deadline between instructions, and one long
 * native step (a huge sort, say) checks nothing.
 */
const BACKSTOP_GRACE_MS = 1_000;

/** The sandbox's own worker, bundled from sandbox.worker.ts. */
export function startSandboxWorker(): SandboxWorker {
  return new Worker(new URL('./sandbox.worker.ts', import.meta.url), { type: 'module', name: 'ambi-web code mode' });
}

/**
 * Run a program in a dedicated worker of its own, terminated when the program ends, when
 * `signal` aborts, and when the sandbox overstays its deadline (the backstop: the time no tool
 * call was pending, a lower bound of the time the program ran, past `timeoutMs` + a grace).
 */
export function runInWorker(
  program: SandboxProgram,
  tools: ProgramTools,
  signal?: AbortSignal,
  start: () => SandboxWorker = startSandboxWorker,
): Promise<SandboxOutcome> {
  return new Promise<SandboxOutcome>((resolve, reject) => {
    const worker = start();
    const calls = new AbortController();
    let pending = 0;
    let ran = 0;
    let runningSince: number | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const end = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      calls.abort(new Error('the program ended'));
      worker.terminate();
      settle();
    };
    const fail = (code: 'sandbox_unavailable', message: string) => end(() => reject(new ProgramError(code, message)));
    const onAbort = () => end(() => resolve({ ok: false, code: 'aborted', message: 'The program was aborted.', logs: [] }));
    const overstayed = () =>
      end(() =>
        resolve({ ok: false, code: 'program_timeout', message: `The program ran past its ${program.limits.timeoutMs} ms deadline and was stopped.`, logs: [] }),
      );
    const running = () => {
      runningSince = performance.now();
      timer = setTimeout(overstayed, Math.max(0, program.limits.timeoutMs + BACKSTOP_GRACE_MS - ran));
    };
    const waiting = () => {
      if (runningSince !== undefined) ran += performance.now() - runningSince;
      runningSince = undefined;
      clearTimeout(timer);
    };
    signal?.addEventListener('abort', onAbort);
    worker.addEventListener('error', (event) =>
      fail('sandbox_unavailable', `The sandbox's worker failed: ${(event as ErrorEvent).message || 'it did not load'}`),
    );
    worker.addEventListener('messageerror', () => fail('sandbox_unavailable', "A message from the sandbox's worker could not be read."));
    worker.addEventListener('message', ({ data }) => {
      if (data.type === 'ready') {
        clearTimeout(timer);
        running();
      } else if (data.type === 'call') {
        if (pending++ === 0) waiting();
        void answerCall(tools, data.name, data.args, data.id, calls.signal).then((answer) => {
          if (calls.signal.aborted) return;
          worker.postMessage({ type: 'answer', id: data.id, answer });
          if (--pending === 0) running();
        });
      } else if (data.type === 'done') end(() => resolve(data.outcome));
      else if (data.type === 'broken') fail('sandbox_unavailable', `The sandbox did not start: ${data.message}`);
    });
    timer = setTimeout(() => fail('sandbox_unavailable', `The sandbox did not start within ${START_TIMEOUT_MS} ms.`), START_TIMEOUT_MS);
    worker.postMessage({ type: 'start', code: program.code, names: [...program.names], limits: program.limits });
  });
}
