import * as Comlink from 'comlink';
import { AmbiError, isAmbiError } from '../errors/ambi-error.js';
import { DuplicateToolError } from '../errors/duplicate-tool-error.js';
import type { EngineConfig } from '../engines/config.js';
import type { Run, RunOptions } from '../runner/chat-runner.js';
import { EventChannel } from '../runner/events.js';
import type { RunResult } from '../runner/run-result.js';
import { checkTool } from '../tools/check-tool.js';
import type { Tool, ValidationMode } from '../tools/types.js';
import { toDescriptor } from './descriptor.js';
import { askHere, callHere } from './call-here.js';
import { PagePort } from './page-port.js';
import { comlinkEndpoint } from './session-link.js';
import type { RunnerWorkerApi, ToolDescriptor, ToolInvoker, WireRunOptions, WorkerLeafOptions } from './protocol.js';
import { ToolWorkerSupervisor, type WorkerSource } from './tool-worker.js';
import { registerTransferHandlers } from './transfer-handlers.js';
import { cloneableReason } from './wire-error.js';
import type { RunEvent } from '../runner/events.js';

/** A run as the page tracks it: its events arrive on the session link, and they settle its result. */
interface PageRun {
  channel: EventChannel;
  resolve: (result: RunResult) => void;
  reject: (error: unknown) => void;
}

export interface WorkerRunnerOptions {
  engine: EngineConfig;
  /** Calls of one reply that run at once (default 5). */
  concurrency?: number;
  preamble?: string;
  maxResultChars?: number;
  /** IndexedDB database (in the worker) for conversations, the tool-call journal and leaf snapshots. */
  database?: string;
  /** Let the model delegate to leaves with `spawn_leaf` (snapshots in `database`). */
  leaf?: WorkerLeafOptions;
  /** Start the runner worker yourself (default: the one bundled with ambi-web). */
  worker?: () => Worker;
  /**
   * How the runner worker validates tool arguments: `auto` (default: ajv's compiled
   * validators, or a no-eval validator where the worker's CSP refuses eval) or `no-eval`
   * (never attempts eval: no CSP violation at all, for extensions and strict-CSP sites).
   */
  validation?: ValidationMode;
}

export interface WorkerToolsOptions {
  /** How long a worker tool may ignore its aborted signal before its worker is terminated (default 100 ms). */
  graceMs?: number;
}

/** Start a runner in a Web Worker; the page keeps its own tools and only sees events and results. */
export function createWorkerRunner(options: WorkerRunnerOptions): WorkerRunner {
  return new WorkerRunner(options);
}

/** The page's handle on a runner worker. Every pending call rejects with a coded error if that worker dies or is closed. */
export class WorkerRunner {
  readonly #worker: Worker;
  readonly #api: Comlink.Remote<RunnerWorkerApi>;
  readonly #names = new Set<string>();
  /** What the page serves to the worker, by tool name. */
  readonly #served = new Map<string, ToolInvoker>();
  readonly #runs = new Map<string, PageRun>();
  readonly #port: PagePort;
  readonly #supervisors: ToolWorkerSupervisor[] = [];
  readonly #died: Promise<never>;
  #die!: (error: AmbiError) => void;
  #dead: AmbiError | undefined;
  /** Registrations and configuration, in order; each run waits for them. */
  #ready: Promise<void>;
  #registrationErrors: unknown[] = [];

  constructor(options: WorkerRunnerOptions) {
    registerTransferHandlers();
    this.#died = new Promise<never>((_, reject) => {
      this.#die = (error) => {
        if (this.#dead) return;
        this.#dead = error;
        reject(error);
        this.#port.abortAll(error);
        for (const [runId, run] of this.#runs) this.#endRun(runId, run, { code: error.code, message: error.message });
      };
    });
    this.#died.catch(() => {});
    this.#worker = options.worker?.() ?? new Worker(new URL('../../workers/runner.worker.ts', import.meta.url), { type: 'module' });
    this.#worker.addEventListener('error', (event) => {
      event.preventDefault();
      this.#die(new AmbiError('worker_crashed', `The runner worker crashed: ${event.message || 'it failed to load or threw'}`));
      this.#worker.terminate();
    });
    this.#api = Comlink.wrap<RunnerWorkerApi>(comlinkEndpoint(this.#worker));
    this.#port = new PagePort(this.#worker, this.#served, (runId, events) => this.#receive(runId, events));
    const { engine, concurrency, preamble, maxResultChars, database, leaf, validation } = options;
    if (leaf) this.#names.add('spawn_leaf');
    const config = { engine, ...defined({ concurrency, preamble, maxResultChars, database, leaf, validation }) };
    this.#ready = this.#guard(this.#api.configure(config));
    this.#ready.catch(() => {});
  }

  /** Add a tool that stays on the page (DOM, app state); the worker calls it through a proxy. */
  tool(tool: Tool): this {
    checkTool(tool);
    this.#claim(tool.name);
    this.#served.set(tool.name, { call: (args, ctx, abort) => callHere(tool, args, ctx, abort), needsApproval: (args) => askHere(tool, args) });
    this.#register(toDescriptor(tool));
    return this;
  }

  /** Start a dedicated tool worker (a module that calls `exposeTools`) and add its tools; resolves with their names. */
  async workerTools(source: WorkerSource, options: WorkerToolsOptions = {}): Promise<string[]> {
    const supervisor = new ToolWorkerSupervisor(source, options.graceMs);
    this.#supervisors.push(supervisor);
    const descriptors = await this.#guard(supervisor.start());
    for (const descriptor of descriptors) this.#claim(descriptor.name);
    for (const descriptor of descriptors) {
      this.#served.set(descriptor.name, supervisor.served(descriptor.name));
      this.#register(descriptor);
    }
    await this.#ready;
    return descriptors.map((d) => d.name);
  }

  /** Start a run in the worker; same `Run` shape as `ChatRunner.run`. */
  run(input: string, options: RunOptions = {}): Run {
    const runId = options.runId ?? crypto.randomUUID();
    const channel = new EventChannel();
    const wire: WireRunOptions = defined({ maxIterations: options.maxIterations, conversation: options.conversation, toolChoice: options.toolChoice, lock: options.lock });
    const started = this.#ready.then(() => {
      const failed = this.#registrationErrors.splice(0);
      if (failed.length > 0) throw failed[0];
      return this.#guard(this.#api.startRun(runId, input, wire));
    });
    // The result crosses once, inside the run's own run_finished (or run_failed) event.
    let run!: PageRun;
    const result = new Promise<RunResult>((resolve, reject) => (run = { channel, resolve, reject }));
    result.catch(() => {});
    this.#runs.set(runId, run);
    // A run that fails to start (or a worker that dies first) still ends its events.
    started.catch((error: unknown) => {
      run.reject(error);
      this.#endRun(runId, run, { code: isAmbiError(error) ? error.code : 'worker_crashed', message: error instanceof Error ? error.message : String(error) });
    });
    const send = (action: () => Promise<void>) => void started.then(action).catch(() => {});
    const abort = (reason?: unknown) => send(() => this.#guard(this.#api.abort(runId, cloneableReason(reason))));
    if (options.signal?.aborted) abort(options.signal.reason);
    else options.signal?.addEventListener('abort', () => abort(options.signal?.reason), { once: true });
    return {
      runId,
      events: channel,
      result,
      abort,
      approve: (callId) => send(() => this.#guard(this.#api.approve(runId, callId))),
      deny: (callId, reason) => send(() => this.#guard(this.#api.deny(runId, callId, reason))),
    };
  }

  /** End the runner worker and every tool worker; whatever is pending rejects with code `closed`. */
  close(): void {
    this.#die(new AmbiError('closed', 'The runner was closed'));
    this.#worker.terminate();
    for (const supervisor of this.#supervisors) supervisor.close();
  }

  /** Events from the session link, in order; the run's own last event settles its result. */
  #receive(runId: string, events: RunEvent[] | null): void {
    const run = this.#runs.get(runId);
    if (!run) return;
    if (events === null) return this.#endRun(runId, run);
    for (const event of events) {
      run.channel.push(event);
      if (event.leafId) continue;
      if (event.type === 'run_finished') run.resolve(event.result);
      if (event.type === 'run_failed') run.reject(new AmbiError(event.error.code, event.error.message));
    }
  }

  /** Close a run's events (with a `run_failed` first, which also settles its result, when the worker is gone) and forget it. */
  #endRun(runId: string, run: PageRun, failure?: { code: string; message: string }): void {
    if (this.#runs.get(runId) !== run) return;
    this.#runs.delete(runId);
    if (failure) {
      run.channel.push({ type: 'run_failed', error: failure });
      run.reject(new AmbiError(failure.code, failure.message));
    }
    run.channel.close();
  }

  #claim(name: string): void {
    if (this.#names.has(name)) throw new DuplicateToolError(name);
    this.#names.add(name);
  }

  #register(descriptor: ToolDescriptor): void {
    this.#ready = this.#ready.then(() =>
      this.#guard(this.#api.registerTool(descriptor)).catch((error: unknown) => {
        if (isAmbiError(error, 'worker_crashed') || isAmbiError(error, 'closed')) throw error;
        this.#names.delete(descriptor.name);
        this.#served.delete(descriptor.name);
        this.#registrationErrors.push(error);
      }),
    );
    this.#ready.catch(() => {});
  }

  /** A worker call that also rejects when the worker dies or the runner closes. */
  #guard<T>(call: Promise<T>): Promise<T> {
    if (this.#dead) return Promise.reject(this.#dead);
    return Promise.race([call, this.#died]);
  }
}

function defined<T extends Record<string, unknown>>(fields: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as never;
}
