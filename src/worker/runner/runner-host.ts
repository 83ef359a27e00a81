import * as Comlink from 'comlink';
import { AmbiError } from '../../errors/ambi-error.js';
import type { Agent } from '../../agent/agent.js';
import type { ChatRunner, Run } from '../../runner/chat-runner.js';
import type { EventChannel } from '../../runner/events.js';
import { remoteTool } from '../wire/descriptor.js';
import type { PageHostApi, RunnerConfig, RunnerWorkerApi } from '../wire/protocol.js';
import { fromWireReason, toWireError } from '../wire/wire-error.js';
import { registerTransferHandlers } from '../wire/transfer-handlers.js';
import type { McpConnection } from '../../mcp/connection.js';
import { PageLink } from './page-link.js';
import { makeRunnerAgent, type ServeRunnerOptions } from './runner-agent.js';

export type { ServeRunnerOptions } from './runner-agent.js';
import { RunView } from '../shared/run-view.js';

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
  // its run_finished event. Once its events end, the run is forgotten.
  const follow = (runId: string, run: Run, conversation: string | undefined) => {
    const { port } = ready();
    const view = new RunView(runId, conversation, false);
    runs.set(runId, run);
    views.set(runId, view);
    (run.events as EventChannel).pipe((event) => {
      if (event) view.see(event);
      port.event(runId, event);
      if (event === null) {
        runs.delete(runId);
        views.delete(runId);
      }
    });
  };

  return {
    // The page calls this again after a failure (a blocked database, say): nothing is kept of a failed attempt.
    async configure(config: RunnerConfig) {
      port ??= new PageLink(Comlink.wrap<PageHostApi>(endpoint));
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
    async startRun(runId, input, { traced, ...options }) {
      const { agent, runner, port } = ready();
      follow(runId, runner.run(agent, input, { ...options, runId, ...tracedBy(port, runId, traced) }), options.conversation);
    },
    async resumeRun(runId, conversation, { traced, ...options }) {
      const { agent, runner, port } = ready();
      follow(runId, runner.resume(agent, conversation, { ...options, runId, ...tracedBy(port, runId, traced) }), conversation);
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
  };
}

/** A run the page traces: its calls ask the page for their trace context (an MCP call sends it to its server). */
function tracedBy(port: PageLink, runId: string, traced: boolean | undefined) {
  return traced ? { traceContext: (callId: string) => port.traceContext(runId, callId) } : {};
}
