import { AmbiError } from '../../errors/ambi-error.js';
import { InvalidOptionError } from '../../errors/invalid-option-error.js';
import { defined } from '../../util/defined.js';
import type { Run } from '../../runner/chat-runner.js';
import * as Comlink from 'comlink';
import type { SpanSink } from '../../extensions/traces/span-records.js';
import { remoteOutput } from '../runner/remote-output.js';
import { spanRecorder } from '../runner/runner-host.js';
import type { OutputCheck, RunnerConfig, RunnerWorkerApi, WireResumeOptions, WireRunOptions } from '../wire/protocol.js';
import { fromWireReason, toWireError } from '../wire/wire-error.js';
import { type Client, whilePresent } from './client.js';
import type { ResumableRun } from './lead-protocol.js';
import type { PageIdentity, RunInfo } from './protocol.js';
import type { SharedRun } from './shared-run.js';
import type { SharedAgent } from './shared-agent.js';

/** What a page's API needs of the origin's runner (OriginHost). */
export interface Origin {
  /** This runner leads for the origin from a tab (its runs may be handed on). */
  readonly leads: boolean;
  identify(client: Client, identity: PageIdentity): void;
  agentFor(config: RunnerConfig): Promise<SharedAgent>;
  start(client: Client, runId: string, conversation: string | undefined, resumable: ResumableRun | undefined, begin: () => Run): void;
  find(runId: unknown): SharedRun;
  runs(): RunInfo[];
  resumeAdopted(): Promise<void>;
}

/** What the origin's runner serves one page: the runner's API, plus what only a leading tab's page asks. */
export interface SharedRunnerApi extends RunnerWorkerApi {
  /** The leading tab's page, its own tools registered: resume the runs the tab that led before handed on. */
  resumeAdopted(): Promise<void>;
}

/** The runner's API as page `client` is served it by the origin's runner `origin`. */
export function clientApi(origin: Origin, client: Client): SharedRunnerApi {
  /** The agent of this page's configuration, once it configured. */
  let agent: SharedAgent | undefined;
  const ready = (): SharedAgent => {
    if (!agent) throw new AmbiError('not_configured', 'The runner worker was used before it was configured');
    return agent;
  };
  /**
   * What a run takes from the page that started it and cannot be cloned (its tracer's span sink,
   * its Standard Schema), reached while that page lives: a check asked after it went ends
   * `tab_gone`. Released once the run ends.
   */
  const taken = (run: Run, spans: SpanSink | undefined, check: OutputCheck | undefined) => {
    const release = () => {
      for (const remote of [spans, check]) (remote as Partial<Comlink.Remote<object>> | undefined)?.[Comlink.releaseProxy]?.();
    };
    run.result.then(release, release);
    return run;
  };
  const tracerOf = (spans: SpanSink | undefined) => (spans ? spanRecorder(spans) : undefined);
  const start = (runId: string, conversation: string | undefined, options: WireResumeOptions, begin: (agent: SharedAgent) => Run) => {
    const made = ready();
    origin.start(client, runId, conversation, resumable(origin, made, runId, conversation, options), () => begin(made));
  };

  return {
    async configure(config) {
      // A page says who it is (its lock is how the runner learns it went): one that does not
      // would hold tools and runs no one could tell were gone.
      const identity = checkedIdentity(config.page);
      if (!identity) throw new InvalidOptionError('page', 'a page of a shared runner says who it is: { pageId, tabId }, each a string of 1 to 200 characters');
      origin.identify(client, identity);
      agent = await origin.agentFor(config);
    },
    async registerTools(descriptors) {
      const agent = ready();
      return descriptors.map((descriptor) => {
        try {
          agent.tools.add(client, descriptor);
          return null;
        } catch (error) {
          return toWireError(error);
        }
      });
    },
    async unregisterTool(name) {
      ready().tools.remove(client, name);
    },
    async startRun(runId, input, { output, ...options }, spans, check) {
      const tracer = await tracerOf(spans);
      const present = check && { validate: (value: unknown) => whilePresent(client.gone, check.validate(value)) };
      const given = present && output ? remoteOutput(output, present) : output;
      start(runId, options.conversation, options, ({ made }) =>
        taken(made.runner.run(made.agent, input, { ...options, runId, ...defined({ tracer, output: given }) }), spans, check),
      );
    },
    async resumeRun(runId, conversation, options, spans) {
      const tracer = await tracerOf(spans);
      start(runId, conversation, options, ({ made }) =>
        taken(made.runner.resume(made.agent, conversation, { ...options, runId, ...defined({ tracer }) }), spans, undefined),
      );
    },
    async abort(runId, reason) {
      origin.find(runId).control().abort(fromWireReason(reason));
    },
    async suspend(runId) {
      origin.find(runId).control().suspend();
    },
    async approve(runId, callId, options) {
      // Decided once: the first answer, from whichever page, settles the call; a later one finds nothing waiting.
      origin
        .find(runId)
        .control()
        .approve(callId, options as Parameters<Run['approve']>[1]);
    },
    async deny(runId, callId, reason, options) {
      origin.find(runId).control().deny(callId, reason, options);
    },
    async respond(runId, callId, values) {
      // Answered once, as an approval is: from whichever page; a check the answers fail rejects (coded) to that page.
      await origin.find(runId).control().respond(callId, values);
    },
    async pendingApprovals(conversation) {
      const { made } = ready();
      return made.runner.pendingApprovals(made.agent, conversation);
    },
    async cassette() {
      return ready().made.agent.cassette();
    },
    async mcpConnect(config) {
      return ready().mcp.open(client, config);
    },
    async mcpRefresh(id) {
      return ready().mcp.refresh(client, id);
    },
    async mcpClose(id) {
      await ready().mcp.close(client, id);
    },
    async runs() {
      return origin.runs();
    },
    async attach(runId) {
      origin.find(runId).attach(client);
    },
    async resumeAdopted() {
      await origin.resumeAdopted();
    },
  };
}

/** What another tab's runner would resume a run from: only a leading tab's run, on a conversation stored in a database. */
function resumable(
  origin: Origin,
  agent: SharedAgent,
  runId: string,
  conversation: string | undefined,
  options: WireRunOptions | WireResumeOptions,
): ResumableRun | undefined {
  if (!origin.leads || conversation === undefined || agent.config.database === undefined) return undefined;
  const { maxIterations, maxCallsPerReply, toolChoice, maxTokens } = options;
  return { runId, conversation, config: agent.config, options: defined({ maxIterations, maxCallsPerReply, toolChoice, maxTokens }) };
}

/** A page's identity as it crossed: two short strings, or nothing usable. */
function checkedIdentity(page: unknown): PageIdentity | undefined {
  if (typeof page !== 'object' || page === null) return undefined;
  const { pageId, tabId } = page as Record<string, unknown>;
  const fits = (id: unknown): id is string => typeof id === 'string' && id.length > 0 && id.length <= 200;
  return fits(pageId) && fits(tabId) ? { pageId, tabId } : undefined;
}
