import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { GUEST_PRELUDE, PRELUDE_FILE, PROGRAM_FILE } from './guest-prelude.js';
import { OpaqueRefs } from './opaque-refs.js';
import { brokenFailure, stuckFailure, type ThrownReport, thrownFailure, timeoutFailure } from './program-failure.js';
import type { CallAnswer, SandboxLimits, SandboxOutcome } from './protocol.js';
import { ProgramLogs } from './program-logs.js';
import { SandboxClock } from './sandbox-clock.js';

/** The host as a running program sees it: one answer per call, never a rejection. */
export interface SandboxHost {
  call(name: string, args: string, index: number): Promise<CallAnswer>;
}

/** A program for the sandbox: its source (the body of an async function) and the tools it may call. */
export interface SandboxProgram {
  code: string;
  names: readonly string[];
  limits: SandboxLimits;
}

/** C stack QuickJS allows a program: deep recursion throws inside the program long before the host's stack runs out. */
const MAX_STACK_BYTES = 128 * 1024;
/** Jobs run between checks of the program's own promise: a program that keeps queueing jobs after returning is not waited for. */
const JOB_BATCH = 256;

/**
 * Run one program in a runtime of `quickjs`, an instance of its own (steps):
 * 1. a runtime with the memory, stack and time limits; a context with the prelude's `tools` and `console`;
 * 2. the program compiled as the body of an async function (a syntax error is its `program_error`);
 * 3. a pump: run the sandbox's jobs, wait for a tool call's answer, settle it in the guest, again,
 *    until the program's promise settles, its time is up, it can never go on, or `signal` aborts;
 * 4. everything freed, unless QuickJS broke (the host's stack ran out inside it): then the
 *    instance is left to the garbage collector, never used again.
 */
export async function runInQuickJS(quickjs: QuickJSWASMModule, program: SandboxProgram, host: SandboxHost, signal?: AbortSignal): Promise<SandboxOutcome> {
  let made: QuickJSProgram;
  try {
    made = new QuickJSProgram(quickjs, program, host, signal);
  } catch (error) {
    // No runtime or context within the limits: nothing of the program ran.
    return brokenFailure(error, []);
  }
  return made.run();
}

class QuickJSProgram {
  readonly #program: SandboxProgram;
  readonly #host: SandboxHost;
  readonly #signal: AbortSignal | undefined;
  readonly #clock: SandboxClock;
  readonly #refs = new OpaqueRefs();
  readonly #logs: ProgramLogs;
  readonly #runtime: QuickJSRuntime;
  readonly #context: QuickJSContext;
  /** The guest's `settle` callback of each call in flight, by call id. */
  readonly #inFlight = new Map<number, QuickJSHandle>();
  readonly #answers: { id: number; answer: CallAnswer }[] = [];
  #calls = 0;
  #timedOut = false;
  #ended = false;
  #wake: (() => void) | undefined;
  #envelope: string | undefined;
  #rejection: unknown;

  constructor(quickjs: QuickJSWASMModule, program: SandboxProgram, host: SandboxHost, signal: AbortSignal | undefined) {
    this.#program = program;
    this.#host = host;
    this.#signal = signal;
    this.#clock = new SandboxClock(program.limits.timeoutMs);
    this.#logs = new ProgramLogs(program.limits.maxLogLines, program.limits.maxOutputChars);
    this.#runtime = quickjs.newRuntime({ memoryLimitBytes: program.limits.memoryBytes, maxStackSizeBytes: MAX_STACK_BYTES });
    this.#runtime.setInterruptHandler(() => this.#mustStop());
    this.#context = this.#runtime.newContext();
  }

  async run(): Promise<SandboxOutcome> {
    const abort = () => this.#wake?.();
    this.#signal?.addEventListener('abort', abort);
    let outcome: SandboxOutcome;
    let handles: QuickJSHandle[] = [];
    try {
      const started = this.#clock.run(() => this.#start());
      if ('ok' in started) outcome = started;
      else {
        handles = started.handles;
        outcome = await this.#pump(started.promise);
      }
    } catch (error) {
      this.#ended = true;
      this.#signal?.removeEventListener('abort', abort);
      return brokenFailure(error, this.#logs.lines());
    }
    this.#ended = true;
    this.#signal?.removeEventListener('abort', abort);
    this.#dispose(handles);
    return outcome;
  }

  /** The prelude and the program compiled; the promise of the program's envelope, or how it failed to start. */
  #start(): SandboxOutcome | { promise: QuickJSHandle; handles: QuickJSHandle[] } {
    const ctx = this.#context;
    const prelude = ctx.evalCode(GUEST_PRELUDE, PRELUDE_FILE);
    if (prelude.error) return this.#failureOf(prelude.error);
    const hostCall = ctx.newFunction('hostCall', (name, args, settle) => this.#onCall(ctx.getString(name), ctx.getString(args), settle.dup()));
    const hostLog = ctx.newFunction('hostLog', (line) => this.#logs.add(ctx.getString(line)));
    const setup = ctx.newString(JSON.stringify({ token: this.#refs.token, names: this.#program.names, maxChars: this.#program.limits.maxOutputChars }));
    const made = ctx.callFunction(prelude.value, ctx.undefined, hostCall, hostLog, setup);
    for (const handle of [prelude.value, hostCall, hostLog, setup]) handle.dispose();
    if (made.error) return this.#failureOf(made.error);
    // On the program's first line, so its line numbers are the model's.
    const compiled = ctx.evalCode(`(async () => {${this.#program.code}\n})`, PROGRAM_FILE);
    if (compiled.error) {
      made.value.dispose();
      return this.#failureOf(compiled.error);
    }
    const started = ctx.callFunction(made.value, ctx.undefined, compiled.value);
    compiled.value.dispose();
    if (started.error) {
      made.value.dispose();
      return this.#failureOf(started.error);
    }
    return { promise: started.value, handles: [made.value, started.value] };
  }

  async #pump(promise: QuickJSHandle): Promise<SandboxOutcome> {
    for (;;) {
      const settled = this.#clock.run(() => this.#drain(promise));
      if (this.#signal?.aborted) return { ok: false, code: 'aborted', message: 'The program was aborted.', logs: this.#logs.lines() };
      if (this.#timedOut) return timeoutFailure(this.#program.limits.timeoutMs, this.#logs.lines());
      if (settled) return this.#outcome();
      if (this.#inFlight.size === 0) return stuckFailure(this.#logs.lines());
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
        if (this.#answers.length > 0 || this.#signal?.aborted) resolve();
      });
      this.#wake = undefined;
    }
  }

  /** Settle the answers that came, run jobs, until the program's promise settles or nothing is left to run now. */
  #drain(promise: QuickJSHandle): boolean {
    for (;;) {
      if (this.#mustStop()) return false;
      const answers = this.#answers.splice(0);
      for (const { id, answer } of answers) this.#settle(id, answer);
      const jobs = this.#runtime.executePendingJobs(JOB_BATCH);
      // A job that threw (a promise's handler) ran all the same; the program's own promise says how it ended.
      jobs.error?.dispose();
      const ran = jobs.error ? 1 : jobs.value;
      if (this.#settledState(promise)) return true;
      if (ran === 0 && this.#answers.length === 0) return false;
    }
  }

  #settledState(promise: QuickJSHandle): boolean {
    const state = this.#context.getPromiseState(promise);
    if (state.type === 'pending') return false;
    if (state.type === 'fulfilled') {
      this.#envelope = this.#context.getString(state.value);
      state.value.dispose();
    } else {
      this.#rejection = this.#dumped(state.error);
      state.error.dispose();
    }
    return true;
  }

  #outcome(): SandboxOutcome {
    if (this.#envelope === undefined) return thrownFailure(reportOf(this.#rejection), this.#program.limits.memoryBytes, this.#logs.lines());
    const envelope = JSON.parse(this.#envelope) as { ok: true; result: string; cut: boolean } | ({ ok: false } & ThrownReport);
    if (!envelope.ok) return thrownFailure(envelope, this.#program.limits.memoryBytes, this.#logs.lines());
    const result = envelope.cut ? JSON.stringify(envelope.result) : this.#refs.revive(envelope.result);
    return { ok: true, result, logs: this.#logs.lines() };
  }

  #onCall(name: string, args: string, settle: QuickJSHandle): void {
    const id = this.#calls++;
    this.#inFlight.set(id, settle);
    if (id >= this.#program.limits.maxToolCalls) {
      const message = `The program made more than ${this.#program.limits.maxToolCalls} tool calls; this one was not made.`;
      this.#answers.push({ id, answer: { ok: false, code: 'too_many_calls', message } });
      return;
    }
    this.#host.call(name, this.#refs.revive(args), id).then(
      (answer) => this.#answer(id, answer),
      (error: unknown) => this.#answer(id, { ok: false, code: 'tool_error', message: String(error) }),
    );
  }

  #answer(id: number, answer: CallAnswer): void {
    if (this.#ended) return;
    this.#answers.push({ id, answer });
    this.#wake?.();
  }

  /** Call the guest's `settle` for call `id` with its answer. */
  #settle(id: number, answer: CallAnswer): void {
    const settle = this.#inFlight.get(id);
    if (!settle) return;
    this.#inFlight.delete(id);
    const ctx = this.#context;
    const args = !answer.ok
      ? [ctx.newNumber(2), ctx.newString(answer.code), ctx.newString(answer.message)]
      : 'json' in answer
        ? [ctx.newNumber(0), ctx.newString(answer.json)]
        : [ctx.newNumber(1), ctx.newNumber(this.#refs.add(JSON.parse(answer.opaque.ref))), ctx.newString(answer.opaque.label)];
    const called = ctx.callFunction(settle, ctx.undefined, ...args);
    for (const handle of [...args, settle]) handle.dispose();
    (called.error ?? called.value).dispose();
  }

  #mustStop(): boolean {
    if (this.#signal?.aborted) return true;
    if (this.#timedOut || this.#clock.expired()) this.#timedOut = true;
    return this.#timedOut;
  }

  #failureOf(error: QuickJSHandle): SandboxOutcome {
    const dumped = this.#dumped(error);
    error.dispose();
    if (this.#timedOut) return timeoutFailure(this.#program.limits.timeoutMs, this.#logs.lines());
    return thrownFailure(reportOf(dumped), this.#program.limits.memoryBytes, this.#logs.lines());
  }

  #dumped(handle: QuickJSHandle): unknown {
    try {
      return this.#context.dump(handle);
    } catch {
      return undefined;
    }
  }

  /** Free everything of this program (if QuickJS breaks doing so, the instance is dropped all the same). */
  #dispose(handles: QuickJSHandle[]): void {
    try {
      for (const handle of [...handles, ...this.#inFlight.values()]) handle.dispose();
      this.#inFlight.clear();
      this.#context.dispose();
      this.#runtime.dispose();
    } catch {
      // Nothing to do: the instance is this program's alone.
    }
  }
}

/** A dumped QuickJS error (an object with name, message, stack, maybe lineNumber) as the prelude would report it. */
function reportOf(dumped: unknown): ThrownReport {
  if (typeof dumped !== 'object' || dumped === null) return { name: 'Error', message: String(dumped), stack: '', thrown: true };
  const error = dumped as Record<string, unknown>;
  const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
  const line = typeof error.lineNumber === 'number' ? error.lineNumber : undefined;
  return {
    name: text(error.name, 'Error'),
    message: text(error.message, ''),
    stack: text(error.stack, ''),
    ...(line === undefined ? {} : { line }),
    thrown: false,
  };
}
