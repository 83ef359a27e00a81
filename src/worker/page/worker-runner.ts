import * as Comlink from 'comlink';
import { AmbiError, isAmbiError } from '../../errors/ambi-error.js';
import { DuplicateToolError } from '../../errors/duplicate-tool-error.js';
import type { Run, RunOptions, RunOutput } from '../../runner/run-options.js';
import type { OutputSchema } from '../../runner/output-types.js';
import type { StandardSchemaV1 } from '../../validation/standard-schema.js';
import { wireOutput } from './page-output.js';
import { checkCount, checkResumed, checkRunOptions } from '../../runner/check-options.js';
import { EventChannel } from '../../runner/events.js';
import type { RunResult } from '../../core/run.js';
import { onAbort } from '../../util/abort-source.js';
import { checkTool } from '../../tools/check-tool.js';
import type { OnToolError, Tool } from '../../tools/types.js';
import { developmentToolErrorLog } from '../../tools/tool-error-log.js';
import { reportedInvoker } from './reported-invoker.js';
import { defined } from '../../util/defined.js';
import { toDescriptor } from '../wire/descriptor.js';
import { askHere, callHere, targetHere } from '../tool-host/call-here.js';
import type { McpServerConfig } from '../../mcp/config.js';
import type { McpConnection, McpConnectOptions } from '../../mcp/connection.js';
import { PageHost } from './page-host.js';
import { crossingApproval } from './crossing-approval.js';
import { connectInWorker } from './worker-mcp.js';
import { PageTrace } from './page-trace.js';
import { type PageRun, PageRuns } from './page-runs.js';
import type { EngineConfig } from '../../engines/config.js';
import type { TabTools, TabToolsOptions } from '../../extension/tab-tools.js';
import { refusedRun } from './refused-run.js';
import { RunnerSetup } from './runner-setup.js';
import type { RunnerConfig, RunnerWorkerApi, ToolDescriptor, ToolInvoker, WireResumeOptions, WireRunOptions } from '../wire/protocol.js';
import type { PendingApproval } from '../../store/approval-types.js';
import type { ToolWorkerSupervisor, WorkerSource, WorkerToolsOptions } from '../tool-host/tool-worker.js';
import { registerTransferHandlers } from '../wire/transfer-handlers.js';
import { fromWireError, toWireReason } from '../wire/wire-error.js';
import { Inflight, onWorkerDeath } from '../wire/worker-life.js';
import type { Cassette } from '../../engines/cassette/cassette.js';
import { errorMessage } from '../../errors/error-message.js';
import { pageParts } from './page-input.js';
import type { RunInput } from '../../core/parts.js';
import { checkCodeMode } from '../../codemode/code-mode-options.js';

/** What `createWorkerRunner` takes: the runner worker's configuration, and how to start the worker. */
export interface WorkerRunnerOptions extends RunnerConfig {
  /** Start the runner worker yourself (default: the one bundled with ambi-web). */
  worker?: () => Worker;
  /**
   * Told, on the page, what a page tool or a tool worker's tool threw when it failed of itself
   * (anything but a `ToolError`): the model reads only `crashed` and its message. Default: in
   * development, each tool's first throw is logged to the console (see `AgentOptions.onToolError`).
   */
  onToolError?: OnToolError;
}

export type { WorkerToolsOptions } from '../tool-host/tool-worker.js';

/**
 * Start a runner in a Web Worker; the page keeps its own tools and only sees events and results.
 *
 * @example
 * ```ts
 * import { createWorkerRunner, openAICompatible } from 'ambi-web/worker';
 *
 * const runner = createWorkerRunner({
 *   engine: openAICompatible({ baseURL: 'http://localhost:11434/v1', model: 'qwen2.5:7b' }),
 *   database: 'my-app', // conversations, the journal and approvals in IndexedDB
 *   validation: 'no-eval', // for a page under a strict CSP
 * });
 * console.log((await runner.run('Hello!', { conversation: 'main' }).result).text);
 * runner.close();
 * ```
 */
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
  readonly #onToolError: OnToolError | undefined;
  readonly #runs = new PageRuns();
  readonly #host: PageHost;
  readonly #supervisors: ToolWorkerSupervisor[] = [];
  /** Calls to the worker in flight: each rejects if the worker dies first. */
  readonly #inflight = new Inflight();
  #dead: AmbiError | undefined;
  /** Configuration and registrations, in order; each run waits for them (and retries a configuration that failed). */
  readonly #setup: RunnerSetup;
  /** The engine's config, for what traces say of it. */
  readonly #engine: EngineConfig;
  #registrationErrors: unknown[] = [];
  /** The runner's `maxPartBytes`, checked here too: a part too large never crosses. */
  readonly #maxPartBytes: number | undefined;

  constructor(options: WorkerRunnerOptions) {
    // Checked here, before a worker starts, as `agent.leaf()` checks them in-process.
    checkCount('leaf.maxDepth', options.leaf?.maxDepth);
    checkCount('leaf.maxIterations', options.leaf?.maxIterations);
    registerTransferHandlers();
    this.#onToolError = options.onToolError ?? developmentToolErrorLog();
    this.#worker = options.worker?.() ?? new Worker(new URL('../../../workers/runner.worker.ts', import.meta.url), { type: 'module' });
    onWorkerDeath(this.#worker, 'runner worker', (error) => this.#die(error));
    // One protocol both ways on the worker's own channel: the page calls the runner's API, the runner calls the page's tools.
    this.#api = Comlink.wrap<RunnerWorkerApi>(this.#worker);
    this.#host = new PageHost(
      this.#served,
      (runId, events, times) => this.#runs.receive(runId, events, times),
      (runId, callId) => this.#runs.traceContext(runId, callId),
    );
    Comlink.expose(this.#host, this.#worker);
    const { engine, concurrency, preamble, maxResultChars, database, leaf, validation, context, record, untrusted, maxPartBytes, maxConversationBytes } =
      options;
    // Checked here, at once (the worker checks it again as it makes its agent); `run_code` is then a name taken.
    const codeMode = checkCodeMode(options.codeMode) ? { codeMode: options.codeMode! } : {};
    if (codeMode.codeMode !== undefined) this.#names.add('run_code');
    this.#engine = engine;
    this.#maxPartBytes = maxPartBytes;
    if (leaf) this.#names.add('spawn_leaf');
    const config = {
      engine,
      ...defined({ concurrency, preamble, maxResultChars, database, leaf, validation, context, record, untrusted, maxPartBytes, maxConversationBytes }),
      ...codeMode,
    };
    this.#setup = new RunnerSetup(
      () => this.#guard(this.#api.configure(config)),
      async (descriptors) => (await this.#guard(this.#api.registerTools(descriptors))).map((refusal) => (refusal ? fromWireError(refusal) : undefined)),
      (name) => this.#guard(this.#api.unregisterTool(name)),
    );
    void this.#setup.sync();
  }

  /**
   * Add a tool that stays on the page (DOM, app state); the worker calls it through a proxy.
   *
   * @example
   * ```ts
   * import { createWorkerRunner, defineTool, scriptedEngine } from 'ambi-web/worker';
   *
   * const readTitle = defineTool({
   *   name: 'read_title', description: 'The page title', readOnly: true,
   *   parameters: { type: 'object', properties: {} },
   *   call: () => document.title, // runs on the page
   * });
   * const runner = createWorkerRunner({ engine: scriptedEngine(['Hi.']) }).tool(readTitle);
   * console.log((await runner.run('Hi').result).text);
   * ```
   */
  tool(tool: Tool): this {
    checkTool(tool);
    this.#claim(tool.name);
    this.#served.set(tool.name, this.#invoker(tool));
    // Refused by the worker (its schema, say): the next run fails with why.
    this.#register(toDescriptor(tool), (error) => this.#registrationErrors.push(error));
    void this.#setup.sync(false);
    return this;
  }

  /**
   * Start a dedicated tool worker (a module that calls `exposeTools`) and add its tools;
   * resolves with their names. A name already taken adds none of them (and stops that
   * worker); a tool the runner worker refuses rejects this, and the others stay added.
   * If the runner worker cannot be configured (its database is blocked, say), this rejects
   * with why and adds nothing.
   */
  async workerTools(source: WorkerSource, options: WorkerToolsOptions = {}): Promise<string[]> {
    // Loaded here, not with the page: an app without tool workers never needs their supervisor.
    const { ToolWorkerSupervisor } = await import('../tool-host/tool-worker.js');
    const supervisor = new ToolWorkerSupervisor(source, options);
    let descriptors: ToolDescriptor[];
    try {
      // The runner worker gets ready meanwhile (a configuration that failed before is tried again).
      [descriptors] = await Promise.all([this.#guard(supervisor.start()), this.#setup.sync()]);
      const taken = descriptors.find((d) => this.#names.has(d.name));
      if (taken) throw new DuplicateToolError(taken.name);
    } catch (error) {
      supervisor.close();
      throw error;
    }
    this.#supervisors.push(supervisor);
    const refused: unknown[] = [];
    for (const descriptor of descriptors) {
      this.#names.add(descriptor.name);
      this.#served.set(descriptor.name, reportedInvoker(descriptor.name, supervisor.served(descriptor.name), this.#onToolError));
      this.#register(descriptor, (error) => refused.push(error));
    }
    await this.#setup.sync();
    if (refused.length > 0) throw refused[0];
    return descriptors.map((d) => d.name);
  }

  /**
   * Connect to an MCP server from the runner worker and register its tools there (all or
   * none; see `agent.mcp`). The MCP client loads in the worker, never on the page; the
   * server must allow the page's origin (CORS) and expose `mcp-session-id`.
   */
  async mcp(config: McpServerConfig, options: McpConnectOptions = {}): Promise<McpConnection> {
    return connectInWorker(config, options, {
      api: this.#api,
      names: this.#names,
      sync: () => this.#setup.sync(),
      guard: (call) => this.#guard(call),
    });
  }

  /**
   * In an extension page: register the tools the content script of tab `tabId` exposes
   * (`exposeTabTools`), as page tools whose calls cross to the tab. Untrusted: what they return
   * is a web page's words. See `ambi-web/extension`.
   */
  async tabTools(tabId: number, options?: TabToolsOptions): Promise<TabTools> {
    // Loaded here, not with the page: an app that is no extension never carries it.
    const { tabTools } = await import('../../extension/tab-tools.js');
    return tabTools({ add: (tools) => this.#addTools(tools), remove: (names) => this.#removeTools(names) }, tabId, options);
  }

  /** Add page tools all or none; resolves once the runner worker took every one of them. */
  async #addTools(tools: readonly Tool[]): Promise<void> {
    const names = new Set<string>();
    for (const tool of tools) {
      checkTool(tool);
      if (this.#names.has(tool.name) || names.has(tool.name)) throw new DuplicateToolError(tool.name);
      names.add(tool.name);
    }
    const refused: unknown[] = [];
    for (const tool of tools) {
      this.#names.add(tool.name);
      this.#served.set(tool.name, this.#invoker(tool));
      this.#register(toDescriptor(tool), (error) => refused.push(error));
    }
    try {
      await this.#setup.sync();
    } catch (error) {
      await this.#removeTools([...names]).catch(() => {});
      throw error;
    }
    if (refused.length === 0) return;
    await this.#removeTools([...names]);
    throw refused[0];
  }

  /** Remove page tools, here and (after the registrations before it) in the runner worker. */
  async #removeTools(names: readonly string[]): Promise<void> {
    for (const name of names) {
      this.#names.delete(name);
      this.#served.delete(name);
      this.#setup.remove(name);
    }
    await this.#setup.sync(false);
  }

  /**
   * Start a run in the worker; same `Run` shape as `ChatRunner.run`. A Standard Schema `output`
   * crosses as JSON Schema: the worker holds the answer to it, the page then parses it with the
   * schema itself (see `finishOnPage`).
   *
   * @example
   * ```ts
   * import { createWorkerRunner, openAICompatible } from 'ambi-web/worker';
   *
   * const runner = createWorkerRunner({ engine: openAICompatible({ baseURL: 'http://localhost:11434/v1', model: 'qwen2.5:7b' }) });
   * const run = runner.run('Is Oslo north of Rome?', { output: { type: 'object', properties: { yes: { type: 'boolean' } }, required: ['yes'] } });
   * const stop = setTimeout(() => run.abort(), 30_000); // `result` then rejects with code `aborted`
   * for await (const event of run.events) if (event.type === 'text_delta') console.log(event.text);
   * const { output } = await run.result;
   * clearTimeout(stop);
   * console.log(output?.yes); // a boolean, typed from the schema
   * ```
   */
  run<const S extends OutputSchema = never>(input: RunInput, options: RunOptions<S> = {}): Run<RunOutput<S>> {
    checkRunOptions(options); // here, as in-process: the same coded error, before anything crosses
    const output = wireOutput(options.output);
    const { maxIterations, maxCallsPerReply, maxOutputRetries, conversation, toolChoice, lock, maxTokens } = options;
    const wire: WireRunOptions = defined({
      maxIterations,
      maxCallsPerReply,
      maxOutputRetries,
      conversation,
      toolChoice,
      lock,
      maxTokens,
      // The page traces the run; the worker asks it for a call's trace context.
      traced: options.tracer !== undefined || undefined,
      output: output?.schema,
    });
    // Parts are checked on the page, their bytes Blobs that cross without a copy; a refusal fails the run before anything crosses.
    const begin =
      typeof input === 'string'
        ? (runId: string) => this.#api.startRun(runId, input, wire)
        : async (runId: string) => this.#api.startRun(runId, await pageParts(input, this.#maxPartBytes), wire);
    return this.#start(options, output?.standard, begin) as Run<RunOutput<S>>;
  }

  /**
   * Continue a conversation's interrupted run in the worker (its `database` holds it): same
   * as `ChatRunner.resume`. `result` rejects with `nothing_to_resume` if nothing was interrupted.
   */
  resume(conversation: string, options: Omit<RunOptions, 'conversation' | 'output' | 'maxOutputRetries'> = {}): Run {
    checkResumed(conversation);
    checkRunOptions({ ...options, conversation });
    const { maxIterations, maxCallsPerReply, toolChoice, lock, maxTokens } = options;
    const traced = options.tracer !== undefined || undefined;
    const wire: WireResumeOptions = defined({ maxIterations, maxCallsPerReply, toolChoice, lock, maxTokens, traced });
    return this.#start({ ...options, conversation }, undefined, (runId) => this.#api.resumeRun(runId, conversation, wire));
  }

  /**
   * Every model request this runner's runs made so far (their leaves' included) and its response,
   * as a JSON cassette for `replayEngine`. Only for a runner made with `record: true` (else it
   * rejects with `invalid_option`).
   */
  async cassette(): Promise<Cassette> {
    await this.#setup.sync();
    return this.#guard(this.#api.cassette());
  }

  /** The calls of a conversation's interrupted run that wait for a decision, read from the worker's database. */
  async pendingApprovals(conversation: string): Promise<PendingApproval[]> {
    checkResumed(conversation);
    await this.#setup.sync();
    return this.#guard(this.#api.pendingApprovals(conversation));
  }

  /** A run or a resume, tracked on the page: `begin` asks the worker to start it under `runId`. */
  #start(
    options: Pick<RunOptions, 'runId' | 'signal' | 'tracer' | 'conversation'>,
    standard: StandardSchemaV1 | undefined,
    begin: (runId: string) => Promise<void>,
  ): Run {
    const runId = options.runId ?? crypto.randomUUID();
    // Runs are told apart by id on both ends of the wire: a second one would take the first one's events.
    if (this.#runs.has(runId)) return refusedRun(runId, new AmbiError('duplicate_run', `A run with id "${runId}" is still going on this runner`));
    const channel = new EventChannel();
    // The run's spans are made here; it starts in the worker once its tracing is ready.
    const trace = options.tracer ? new PageTrace(options.tracer, this.#engine, options.conversation, (event) => channel.push(event)) : undefined;
    const started = Promise.all([this.#setup.sync(), trace?.ready]).then(() => {
      const refused = this.#registrationErrors.splice(0);
      if (refused.length > 0) throw refusal(refused);
      return this.#guard(begin(runId));
    });
    // The result crosses once, inside the run's own run_finished (or run_failed) event.
    let run!: PageRun;
    const result = new Promise<RunResult>(
      (resolve, reject) => (run = { channel, resolve, reject, ...(standard ? { standard } : {}), ...(trace ? { trace } : {}) }),
    );
    result.catch(() => {});
    this.#runs.add(runId, run);
    // A run that fails to start (or a worker that dies first) still ends its events.
    started.catch((error: unknown) => {
      run.reject(error);
      this.#runs.end(runId, run, { code: isAmbiError(error) ? error.code : 'worker_crashed', message: errorMessage(error) });
    });
    const send = (action: () => Promise<void>) => void started.then(action).catch(() => {});
    const abort = (reason?: unknown) => send(() => this.#guard(this.#api.abort(runId, toWireReason(reason))));
    const signal = options.signal;
    if (signal?.aborted) abort(signal.reason);
    else if (signal) run.unhook = onAbort(signal, () => abort(signal.reason));
    return {
      runId,
      events: channel,
      result,
      abort,
      suspend: () => send(() => this.#guard(this.#api.suspend(runId))),
      approve: (callId, approveOptions) => send(() => this.#guard(this.#api.approve(runId, callId, crossingApproval(approveOptions)))),
      deny: (callId, reason, denyOptions) => send(() => this.#guard(this.#api.deny(runId, callId, reason, denyOptions))),
    };
  }

  /** End the runner worker and every tool worker; whatever is pending rejects with code `closed`. */
  close(): void {
    this.#die(new AmbiError('closed', 'The runner was closed'));
  }

  /** The end of this runner: its workers stop, and everything pending ends with `error`. */
  #die(error: AmbiError): void {
    if (this.#dead) return;
    this.#dead = error;
    this.#worker.terminate();
    for (const supervisor of this.#supervisors) supervisor.close();
    this.#inflight.end(error);
    this.#host.abortAll(error);
    this.#runs.endAll({ code: error.code, message: error.message });
  }

  /** How the page runs `tool` for the runner worker, its own failures told to `onToolError`. */
  #invoker(tool: Tool): ToolInvoker {
    const invoker: ToolInvoker = {
      call: (args, ctx, abort) => callHere(tool, args, ctx, abort),
      needsApproval: (args, abort) => askHere(tool, args, abort),
      target: (args, abort) => targetHere(tool, args, abort),
    };
    return reportedInvoker(tool.name, invoker, this.#onToolError);
  }

  #claim(name: string): void {
    if (this.#names.has(name)) throw new DuplicateToolError(name);
    this.#names.add(name);
  }

  /** Register a tool in the worker at the next sync; one it refuses is forgotten here and handed to `refused`. */
  #register(descriptor: ToolDescriptor, refused: (error: unknown) => void): void {
    this.#setup.add(descriptor, (error) => {
      this.#names.delete(descriptor.name);
      this.#served.delete(descriptor.name);
      refused(error);
    });
  }

  /** A worker call that also rejects when the worker dies or the runner closes. */
  #guard<T>(call: Promise<T>): Promise<T> {
    return this.#inflight.track(call);
  }
}

/** Tools the runner worker refused, as the one error the next run fails with: each is named, none is dropped. */
function refusal(errors: unknown[]): unknown {
  if (errors.length === 1) return errors[0];
  const first = errors[0];
  return new AmbiError(
    isAmbiError(first) ? first.code : 'invalid_tool',
    `The runner worker refused ${errors.length} tools: ${errors.map(errorMessage).join('; ')}`,
    { cause: errors },
  );
}
