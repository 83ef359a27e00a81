import * as Comlink from 'comlink';
import { AmbiError } from '../../errors/ambi-error.js';
import type { Agent } from '../../agent/agent.js';
import type { ChatRunner, Run } from '../../runner/chat-runner.js';
import type { EventChannel } from '../../runner/events.js';
import { defined } from '../../util/defined.js';
import { remoteTool } from '../wire/descriptor.js';
import type { PageHostApi, RunnerConfig, RunnerWorkerApi } from '../wire/protocol.js';
import { fromWireReason, toWireError } from '../wire/wire-error.js';
import { registerTransferHandlers } from '../wire/transfer-handlers.js';
import type { McpConnection } from '../../mcp/connection.js';
import { PageLink } from './page-link.js';
import { remoteOutput } from './remote-output.js';
import type { SpanSink } from '../../extensions/traces/span-records.js';
import type { RunTracer } from '../../runner/run-options.js';
import { makeRunnerAgent, type ServeRunnerOptions } from './runner-agent.js';
import { RunView } from '../shared-runner/run-view.js';
import { comlinkView } from '../wire/comlink-view.js';

export type { ServeRunnerOptions } from './runner-agent.js';

/**
 * The runner worker's side of the wire: an Agent and a ChatRunner, driven by the page over
 * Comlink on `endpoint` (the worker's own channel), which also carries this worker's calls of the
 * page's tools and the runs' events (see PageLink).
 */
export function createRunnerHost(endpoint: Comlink.Endpoint, served: ServeRunnerOptions = {}): RunnerWorkerApi {
  // Before any call is answered: coded errors cross both ways.
  registerTransferHandlers();
  let agent: Agent | undefined;
  let runner: ChatRunner | undefined;
  let port: PageLink | undefined;
  const runs = new Map<string, Run>();
  /** What `runs()` lists of each run going on. */
  const views = new Map<string, RunView>();
  const connections = new Map<number, McpConnection>();
  let lastConnection = 0;

  const ready = () => {
    if (!agent || !runner || !port) throw new AmbiError('not_configured', 'The runner worker was used before it was configured');
    return { agent, runner, port };
  };
  const connection = (id: number): McpConnection => {
    const found = connections.get(id);
    if (!found) throw new AmbiError('unknown_connection', `No MCP connection with id ${id} (closed?)`);
    return found;
  };
  const find = (runId: string): Run => {
    const run = runs.get(runId);
    if (!run) throw new AmbiError('unknown_run', `No run with id ${runId}`);
    return run;
  };

  // Events go to the page in batches (see PageLink.event); the run's result crosses inside
  // its run_finished event. Once its events end, the run is forgotten, and so are the page's ends
  // of what it took that could not be cloned (its span sink, its schema).
  const follow = (runId: string, run: Run, conversation: string | undefined, crossed: ReadonlyArray<unknown>) => {
    const { port } = ready();
    const view = new RunView(runId, conversation, false);
    runs.set(runId, run);
    views.set(runId, view);
    (run.events as EventChannel).pipe((event) => {
      if (event) view.see(event);
      port.event(runId, event);
      if (event !== null) return;
      runs.delete(runId);
      views.delete(runId);
      for (const remote of crossed) (remote as Partial<Comlink.Remote<object>>)[Comlink.releaseProxy]?.();
    });
  };

  return {
    // The page calls this again after a failure (a blocked database, say): nothing is kept of a failed attempt.
    async configure(config: RunnerConfig) {
      // A dedicated runner's one page follows all its runs: it keeps its tools' answers (see event-codec.ts).
      port ??= new PageLink(Comlink.wrap<PageHostApi>(endpoint), endpoint, true);
      const link = port;
      ({ agent, runner } = await makeRunnerAgent(config, served, () => link.promptApiAccess()));
    },
    async registerTools(descriptors) {
      // Registration checks each schema here, where calls are validated (a Standard Schema tool's
      // JSON Schema; its own realm validates again with the Standard Schema). One refused leaves the others registered.
      const { agent, port } = ready();
      return descriptors.map((descriptor) => {
        try {
          agent.tool(remoteTool(descriptor, port));
          return null;
        } catch (error) {
          return toWireError(error);
        }
      });
    },
    async unregisterTool(name) {
      ready().agent.registry.unregister(name);
    },
    async startRun(runId, input, { output, ...options }, spans, check) {
      const { agent, runner } = ready();
      const tracer = spans ? await spanRecorder(spans) : undefined;
      const given = check && output ? remoteOutput(output, check) : output;
      follow(runId, runner.run(agent, input, { ...options, runId, ...defined({ tracer, output: given }) }), options.conversation, [spans, check]);
    },
    async resumeRun(runId, conversation, options, spans) {
      const { agent, runner } = ready();
      const tracer = spans ? await spanRecorder(spans) : undefined;
      follow(runId, runner.resume(agent, conversation, { ...options, runId, ...defined({ tracer }) }), conversation, [spans]);
    },
    async cassette() {
      return ready().agent.cassette();
    },
    async runs() {
      return [...views.values()].map((view) => view.info());
    },
    async attach(runId) {
      // One page follows a dedicated runner's runs, each from its start: it already has this one.
      find(runId);
      throw new AmbiError('duplicate_run', `Run ${runId} is already followed by this page`);
    },
    async pendingApprovals(conversation) {
      const { agent, runner } = ready();
      return runner.pendingApprovals(agent, conversation);
    },
    async suspend(runId) {
      find(runId).suspend();
    },
    async mcpConnect(config) {
      // The MCP client loads here, on first use (agent.mcp imports it): never on the page.
      const made = await ready().agent.mcp(config);
      const id = ++lastConnection;
      connections.set(id, made);
      return { id, name: made.name, tools: made.tools };
    },
    async mcpRefresh(id) {
      const made = connection(id);
      await made.refresh();
      return made.tools;
    },
    async mcpClose(id) {
      const made = connections.get(id);
      connections.delete(id);
      await made?.close();
    },
    async abort(runId, reason) {
      find(runId).abort(fromWireReason(reason));
    },
    async approve(runId, callId, options) {
      // Arguments that could not cross are refused as invalid ones are in-process: the call does not run.
      find(runId).approve(callId, options as Parameters<Run['approve']>[1]);
    },
    async deny(runId, callId, reason, options) {
      find(runId).deny(callId, reason, options);
    },
    async respond(runId, callId, values) {
      await find(runId).respond(callId, values);
    },
  };
}

/** A runner host served on `endpoint` over Comlink (whose listener does not see the page's answers: comlinkView). */
export function exposeRunnerHost(endpoint: Comlink.Endpoint, served: ServeRunnerOptions = {}): RunnerWorkerApi {
  const host = createRunnerHost(endpoint, served);
  Comlink.expose(host, comlinkView(endpoint));
  return host;
}

/**
 * The tracer of a run the page traces: the run's spans are made here, as in-process, and recorded
 * to the page's exporter (`spans`), which makes them the page tracer's own. `@opentelemetry/api`
 * (an optional peer) loads here for a traced run only; without it the run is not traced, and says so.
 */
export async function spanRecorder(spans: SpanSink): Promise<RunTracer> {
  try {
    const [api, { RecordingTracer }] = await Promise.all([import('@opentelemetry/api'), import('../../extensions/traces/recording-tracer.js')]);
    return new RecordingTracer(api, spans);
  } catch (error) {
    // The traces extension fails to load the same way, and warns with `trace_failed`.
    return {
      startSpan() {
        throw error;
      },
    };
  }
}
