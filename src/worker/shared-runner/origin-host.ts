import * as Comlink from 'comlink';
import { AmbiError } from '../../errors/ambi-error.js';
import { EngineError } from '../../errors/engine-error.js';
import type { PromptApiAccess } from '../../engines/prompt-api/access.js';
import type { Run } from '../../runner/chat-runner.js';
import { makeRunnerAgent } from '../runner/runner-agent.js';
import type { ServeRunnerOptions } from '../runner/runner-agent.js';
import type { RunnerConfig } from '../wire/protocol.js';
import { registerTransferHandlers } from '../wire/transfer-handlers.js';
import { canonicalJson } from './canonical-json.js';
import { clientApi, type Origin } from './client-api.js';
import { Client, watchPage } from './client.js';
import type { ResumableRun } from './lead-protocol.js';
import type { PageIdentity, RunInfo } from './protocol.js';
import { SharedAgent } from './shared-agent.js';
import { SharedRun } from './shared-run.js';
import { comlinkView } from '../wire/comlink-view.js';

/** How long an ended run stays attachable: a page that reloads as its run ends still gets the end. */
const ENDED_KEPT_MS = 30_000;

/** What a runner that leads for the origin (a tab's dedicated worker, where there is no SharedWorker) tells the other tabs. */
export interface LeadAnnouncer {
  /** The runs it would hand on, each time that set changes. */
  runs(runs: ResumableRun[]): void;
}

/**
 * The origin's one runner: a SharedWorker's, or the leading tab's dedicated worker's. Pages
 * connect to it (`connect`); each configuration gets one Agent (`SharedAgent`), shared by the
 * pages configured alike; runs belong to no page: each page follows the runs it started or
 * attached to, and a run goes on when its page goes.
 */
export class OriginHost implements Origin {
  readonly #clients = new Set<Client>();
  readonly #agents = new Map<string, Promise<SharedAgent>>();
  readonly #built = new Set<SharedAgent>();
  /** Runs going on, and those that ended in the last ENDED_KEPT_MS. */
  readonly #runs = new Map<string, SharedRun>();
  #identified = 0;

  constructor(
    readonly served: ServeRunnerOptions,
    readonly lead?: LeadAnnouncer,
  ) {
    registerTransferHandlers();
  }

  get leads(): boolean {
    return this.lead !== undefined;
  }

  /** A page connects on `endpoint` (`transfers`: a MessagePort, which can carry streams): the runner's API is served to it there. */
  connect(endpoint: Comlink.Endpoint, transfers: boolean): Client {
    const client = new Client(endpoint, transfers);
    this.#clients.add(client);
    Comlink.expose(clientApi(this, client), comlinkView(endpoint));
    return client;
  }

  /** Page `client` said who it is: it is followed until its lock is freed, and its tab's earlier page is known to be left. */
  identify(client: Client, identity: PageIdentity): void {
    if (client.identity) return;
    client.identity = identity;
    client.identified = ++this.#identified;
    watchPage(identity.pageId, client.gone, () => this.leave(client));
    for (const agent of this.#built) agent.tools.returned(identity.tabId);
  }

  /** Page `client` is gone: its tools, its MCP shares and its following go; the runs go on. */
  leave(client: Client): void {
    if (!client.end()) return;
    this.#clients.delete(client);
    const tab = client.identity?.tabId;
    const succeeded = tab !== undefined && [...this.#clients].some((other) => other.identity?.tabId === tab && other.identified > client.identified);
    for (const agent of this.#built) agent.leave(client, succeeded);
    for (const run of this.#runs.values()) run.drop(client);
    (client.endpoint as Partial<MessagePort>).close?.();
  }

  /** The agent of a configuration (the page's identity aside), built once; one that failed to build is tried again next time. */
  agentFor(config: RunnerConfig): Promise<SharedAgent> {
    const { page: _, ...shared } = config;
    const key = canonicalJson(shared);
    const known = this.#agents.get(key);
    if (known) return known;
    const made = makeRunnerAgent(shared, this.served, () => this.#promptApi()).then((runner) => {
      const agent = new SharedAgent(shared, runner, (runId) => this.#runs.get(runId)?.home);
      this.#built.add(agent);
      return agent;
    });
    this.#agents.set(key, made);
    made.catch(() => {
      if (this.#agents.get(key) === made) this.#agents.delete(key);
    });
    return made;
  }

  /** Start run `runId` for page `client`, which follows it; `duplicate_run` if that id is taken (going on, or just ended). */
  start(client: Client, runId: string, conversation: string | undefined, resumable: ResumableRun | undefined, begin: () => Run): void {
    if (this.#runs.has(runId)) throw new AmbiError('duplicate_run', `A run with id "${runId}" is going on in the origin's runner (or just ended)`);
    const started = begin();
    const run = new SharedRun(runId, conversation, client.identity?.tabId, resumable, (ended) => this.#ended(ended));
    run.attach(client);
    this.#runs.set(runId, run);
    run.start(started);
    this.#announce();
  }

  /** The run `runId` (going on, or ended a moment ago), or `unknown_run`. */
  find(runId: unknown): SharedRun {
    const run = typeof runId === 'string' ? this.#runs.get(runId) : undefined;
    if (!run) throw new AmbiError('unknown_run', `No run with id ${String(runId)} in the origin's runner`);
    return run;
  }

  /** The runs going on. */
  runs(): RunInfo[] {
    return [...this.#runs.values()].filter((run) => !run.ended).map((run) => run.view.info());
  }

  /** A leading tab's runner takes on the runs the last one handed on: each waits, attachable, for `resumeAdopted`. */
  adopt(records: readonly ResumableRun[]): void {
    for (const record of records) {
      if (this.#runs.has(record.runId)) continue;
      const run = new SharedRun(record.runId, record.conversation, undefined, record, (ended) => this.#ended(ended));
      run.note({
        type: 'warning',
        code: 'lead_changed',
        message:
          'The tab that ran this run closed: the runner of the tab that leads now resumes it from its stored conversation (a reply it was writing is asked for again)',
      });
      this.#runs.set(record.runId, run);
    }
    this.#announce();
  }

  /** Resume the runs adopted and not started yet (once the leading page's own tools are registered). */
  async resumeAdopted(): Promise<void> {
    const waiting = [...this.#runs.values()].filter((run) => run.resumable && !run.started && !run.ended);
    await Promise.all(
      waiting.map(async (run) => {
        const record = run.resumable!;
        try {
          const { made } = await this.agentFor(record.config);
          if (!run.started && !run.ended) run.start(made.runner.resume(made.agent, record.conversation, { ...record.options, lock: 'wait', runId: run.runId }));
        } catch (error) {
          run.fail(error);
        }
      }),
    );
  }

  #ended(run: SharedRun): void {
    this.#announce();
    setTimeout(() => {
      if (this.#runs.get(run.runId) === run) this.#runs.delete(run.runId);
    }, ENDED_KEPT_MS);
  }

  #announce(): void {
    if (!this.lead) return;
    this.lead.runs([...this.#runs.values()].flatMap((run) => (run.resumable && !run.ended ? [run.resumable] : [])));
  }

  /** The browser's built-in model, which only documents have: a connected page's (one that can take the prompt's stream, first). */
  #promptApi(): PromptApiAccess {
    const page = () => {
      const clients = [...this.#clients];
      const client = clients.find((c) => c.transfers) ?? clients[0];
      if (!client) throw new EngineError('engine_unavailable', "The browser's built-in model cannot be used: no page is connected to the runner");
      return client.link;
    };
    return { availability: (options) => page().promptApiAvailability(options), prompt: (request) => page().promptApi(request) };
  }
}
