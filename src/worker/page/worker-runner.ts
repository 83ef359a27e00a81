import * as Comlink from 'comlink';
import { AmbiError, isAmbiError } from '../../errors/ambi-error.js';
import type { Run, RunOptions, RunOutput } from '../../runner/run-options.js';
import type { OutputSchema } from '../../runner/output-types.js';
import { wireOutput } from './page-output.js';
import { checkCount, checkResumed, checkRunOptions } from '../../runner/check-options.js';
import type { OnToolError, Tool } from '../../tools/types.js';
import { developmentToolErrorLog } from '../../tools/tool-error-log.js';
import { defined } from '../../util/defined.js';
import type { McpServerConfig } from '../../mcp/config.js';
import type { McpConnection, McpConnectOptions } from '../../mcp/connection.js';
import { PageHost } from './page-host.js';
import { PageRuns } from './page-runs.js';
import { PageTools } from './page-tools.js';
import type { TabTools, TabToolsOptions } from '../../extension/tab-tools.js';
import { RunnerSetup } from './runner-setup.js';
import type { OutputCheck, RunnerConfig, WireResumeOptions, WireRunOptions } from '../wire/protocol.js';
import type { SpanSink } from '../../extensions/traces/span-records.js';
import type { PendingApproval } from '../../store/approval-types.js';
import type { WorkerSource, WorkerToolsOptions } from '../tool-host/tool-worker.js';
import { registerTransferHandlers } from '../wire/transfer-handlers.js';
import { fromWireError } from '../wire/wire-error.js';
import { Inflight } from '../wire/worker-life.js';
import { openLink, type RunnerLink } from './runner-link.js';
import type { SharedRunnerApi } from '../shared-runner/client-api.js';
import type { RunInfo, RunnerWorkerFactory } from '../shared-runner/protocol.js';
import type { Cassette } from '../../engines/cassette/cassette.js';
import { errorMessage } from '../../errors/error-message.js';
import { pageParts } from './page-input.js';
import type { RunInput } from '../../core/parts.js';
import { checkCodeMode } from '../../codemode/code-mode-options.js';
/** What `createWorkerRunner` takes: the runner worker's configuration, and how to start the worker. */
export interface WorkerRunnerOptions extends Omit<RunnerConfig, 'page'> {
  /** Start the runner worker yourself (default: ambi-web's): a `'shared'` one (SharedWorker) or a `'dedicated'` one (Worker). */
  worker?: RunnerWorkerFactory;
  /** One runner for the origin's pages and tabs, in a SharedWorker (docs/worker-runtime.md, "Shared runners"). Default false. */
  shared?: boolean;
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
  readonly #link: RunnerLink;
  readonly #api: Comlink.Remote<SharedRunnerApi>;
  /** The tools the page serves the worker (its own, its tool workers', a tab's). */
  readonly #tools: PageTools;
  readonly #runs = new PageRuns();
  readonly #host: PageHost;
  /** Calls to the worker in flight: each rejects if the worker dies first. */
  readonly #inflight = new Inflight();
  #dead: AmbiError | undefined;
  /** Configuration and registrations, in order; each run waits for them (and retries a configuration that failed). */
  readonly #setup: RunnerSetup;
  /** The runner's `maxPartBytes`, checked here too: a part too large never crosses. */
  readonly #maxPartBytes: number | undefined;

  constructor(options: WorkerRunnerOptions) {
    // Checked here, before a worker starts, as `agent.leaf()` checks them in-process.
    checkCount('leaf.maxDepth', options.leaf?.maxDepth);
    checkCount('leaf.maxIterations', options.leaf?.maxIterations);
    registerTransferHandlers();
    this.#link = openLink(
      options,
      (error) => this.#die(error),
      () => ({ inflight: this.#inflight, host: this.#host, setup: this.#setup, runs: this.#runs, api: this.#api, guard: (call) => this.#guard(call) }),
    );
    // One protocol both ways on the worker's own channel: the page calls the runner's API, the runner calls the page's tools.
    this.#api = Comlink.wrap<SharedRunnerApi>(this.#link.endpoint);
    const { engine, concurrency, preamble, maxResultChars, database, leaf, validation, context, record, untrusted, maxPartBytes, maxConversationBytes } =
      options;
    this.#maxPartBytes = maxPartBytes;
    const config = {
      engine,
      ...defined({ concurrency, preamble, maxResultChars, database, leaf, validation, context, record, untrusted, maxPartBytes, maxConversationBytes }),
      ...(checkCodeMode(options.codeMode) ? { codeMode: options.codeMode } : {}), // checked at once; the worker checks it again
    };
    this.#setup = new RunnerSetup(
      () => this.#guard(this.#link.identity().then((page) => this.#api.configure(page ? { ...config, page } : config))),
      async (descriptors) => (await this.#guard(this.#api.registerTools(descriptors))).map((refusal) => (refusal ? fromWireError(refusal) : undefined)),
      (name) => this.#guard(this.#api.unregisterTool(name)),
    );
    this.#tools = new PageTools(this.#setup, options.onToolError ?? developmentToolErrorLog(), (call) => this.#guard(call));
    if (leaf) this.#tools.names.add('spawn_leaf');
    if (config.codeMode !== undefined) this.#tools.names.add('run_code');
    // A runner of its own runs only this page's runs: the page keeps its tools' answers, which then need not cross back.
    this.#host = new PageHost(this.#tools.served, (runId, events) => this.#runs.receive(runId, events), !options.shared);
    this.#host.serve(this.#link.endpoint);
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
    // Refused by the worker (its schema, say): the next run fails with why.
    this.#tools.add(tool);
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
    return this.#tools.addWorker(source, options);
  }

  /**
   * Connect to an MCP server from the runner worker and register its tools there (all or
   * none; see `agent.mcp`). The MCP client loads in the worker, never on the page (whose part
   * loads with the first connection); the server must allow the page's origin (CORS) and expose `mcp-session-id`.
   */
  async mcp(config: McpServerConfig, options: McpConnectOptions = {}): Promise<McpConnection> {
    const { connectInWorker } = await import('./worker-mcp.js');
    return connectInWorker(config, options, {
      api: this.#api,
      names: this.#tools.names,
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
    return tabTools({ add: (tools) => this.#tools.addAll(tools), remove: (names) => this.#tools.removeAll(names) }, tabId, options);
  }

  /**
   * Start a run in the worker; same `Run` shape as `ChatRunner.run`. A Standard Schema `output`
   * crosses as JSON Schema for the model, and the worker asks the schema itself, here, about each
   * answer (see PageOutput); a `tracer` stays here too, and the worker's spans become its own.
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
      output: output?.schema,
    });
    // Parts are checked on the page, their bytes Blobs that cross without a copy; a refusal fails the run before anything crosses.
    const begin = async (runId: string, spans?: SpanSink, check?: OutputCheck) =>
      this.#api.startRun(runId, typeof input === 'string' ? input : await pageParts(input, this.#maxPartBytes), wire, spans, check);
    return this.#runs.start(this.#starter(), options, output?.standard, begin) as Run<RunOutput<S>>;
  }

  /**
   * Continue a conversation's interrupted run in the worker (its `database` holds it): same
   * as `ChatRunner.resume`. `result` rejects with `nothing_to_resume` if nothing was interrupted.
   */
  resume(conversation: string, options: Omit<RunOptions, 'conversation' | 'output' | 'maxOutputRetries'> = {}): Run {
    checkResumed(conversation);
    checkRunOptions({ ...options, conversation });
    const { maxIterations, maxCallsPerReply, toolChoice, lock, maxTokens } = options;
    const wire: WireResumeOptions = defined({ maxIterations, maxCallsPerReply, toolChoice, lock, maxTokens });
    return this.#runs.start(this.#starter(), options, undefined, (runId, spans) => this.#api.resumeRun(runId, conversation, wire, spans));
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

  /** The runs going on in the runner (a shared one: every tab's), each with the calls that wait for a person. */
  async runs(): Promise<RunInfo[]> {
    await this.#setup.sync();
    return this.#guard(this.#api.runs());
  }

  /** Follow a run going on in a shared runner: its state so far, then its events, each once (see `PageRuns.attach`). */
  attach(runId: string): Run {
    return this.#runs.attach(this.#starter(), runId);
  }

  /** The calls of a conversation's interrupted run that wait for a decision, read from the worker's database. */
  async pendingApprovals(conversation: string): Promise<PendingApproval[]> {
    checkResumed(conversation);
    await this.#setup.sync();
    return this.#guard(this.#api.pendingApprovals(conversation));
  }

  /** What a run started here needs: the worker, set up with the page's tools (a refusal fails the run), and its guard. */
  #starter() {
    return {
      api: this.#api,
      ready: async () => {
        await this.#setup.sync();
        const refused = this.#tools.takeRefusals();
        if (refused.length > 0) throw refusal(refused);
      },
      guard: <T>(call: Promise<T>) => this.#guard(call),
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
    this.#link.close();
    this.#tools.closeWorkers();
    this.#inflight.end(error);
    this.#host.abortAll(error);
    this.#runs.endAll({ code: error.code, message: error.message });
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
