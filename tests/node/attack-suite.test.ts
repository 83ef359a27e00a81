// The attack suite in Node: 20 tasks, each with an injection through a page tool, an MCP server
// (a real one, over HTTP), a leaf and a stored conversation after a reload, against a model that
// always obeys it; the same tasks without injection, and with quarantine where the task allows.
// (The tool-worker and WebMCP vectors need a browser: tests/browser/attack-suite.test.ts runs all six.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, ChatRunner, MemoryConversationStore, MemorySnapshotStore, mcpServer, type RunEvent } from '../../src/index.js';
import { actionTools, checkTools, type Defense, Ledger, readTool } from '../support/attack/app-tools.js';
import { ObedientEngine } from '../support/attack/model.js';
import {
  type Outcome,
  playAll,
  type Played,
  prompts,
  report,
  reportLines,
  type Scenario,
  scenarios,
  type SuiteHost,
  type Vector,
} from '../support/attack/suite.js';
import { TASKS } from '../support/attack/tasks.js';
import { startDocumentServer } from '../support/attack/document-server.js';
import type { TestServer } from '../support/mcp-test-server.js';

const VECTORS: Vector[] = ['page tool', 'MCP server', 'leaf', 'stored conversation after a reload'];

/** The app in-process: an agent per defense (and one per defense for the page after a reload), on one conversation store. */
class NodeHost implements SuiteHost {
  readonly ledger = new Ledger();
  readonly #conversations = new MemoryConversationStore();
  readonly #agents = new Map<string, Promise<Agent>>();
  #runs = 0;

  constructor(readonly mcpUrl: string) {}

  #agent(defense: Defense, reloaded: boolean): Promise<Agent> {
    const key = `${defense}/${reloaded}`;
    let agent = this.#agents.get(key);
    if (!agent) {
      agent = this.#make(defense, reloaded);
      this.#agents.set(key, agent);
    }
    return agent;
  }

  async #make(defense: Defense, reloaded: boolean): Promise<Agent> {
    const agent = await Agent.make(new ObedientEngine(), { conversations: this.#conversations });
    for (const tool of actionTools(this.ledger, defense)) agent.tool(tool);
    // After the reload, the page has not read anything yet: no read tool is registered, only the stored marks remain.
    if (reloaded) return agent;
    agent.tool(readTool('read_doc', defense));
    for (const tool of checkTools(defense)) agent.tool(tool);
    agent.leaf({ store: new MemorySnapshotStore(), maxIterations: 6 });
    const policy =
      defense === 'none' ? { afterUntrusted: 'allow' as const } : defense === 'ask every call' ? { needsApproval: true, afterUntrusted: 'allow' as const } : {};
    // The injections are in the documents it serves; its definitions hold none, and the person accepted them at connect.
    await agent.mcp(mcpServer({ url: this.mcpUrl, prefix: 'mcp', policy: { '*': policy }, acceptDefinitions: true }));
    return agent;
  }

  async play(scenario: Scenario, decide: Parameters<SuiteHost['play']>[1]): Promise<Played> {
    const conversation = `suite-${++this.#runs}`;
    const approved = new Set<string>();
    const calls = new Set<string>();
    const texts = prompts(scenario);
    let events: RunEvent[] = [];
    let finished = false;
    for (const [at, prompt] of texts.entries()) {
      // The last prompt of a reload scenario runs on the page after the reload.
      const agent = await this.#agent(scenario.defense, at > 0);
      const run = new ChatRunner().run(agent, prompt, { conversation, maxIterations: 8 });
      events = [];
      for await (const event of run.events) {
        events.push(event);
        if (event.type === 'tool_call') calls.add(event.call.id);
        if (event.type !== 'approval_requested') continue;
        if (decide(event.call)) {
          approved.add(event.call.id);
          run.approve(event.call.id);
        } else run.deny(event.call.id, 'I did not ask for that');
      }
      finished = await run.result.then(
        () => true,
        () => false,
      );
    }
    return { events, finished, approved, calls };
  }
}

describe('the attack suite (Node: page tool, MCP server, leaf, stored conversation after a reload)', () => {
  let server: TestServer;
  let outcomes: Outcome[] = [];
  beforeAll(async () => {
    server = await startDocumentServer();
    const host = new NodeHost(server.url);
    outcomes = await playAll(host, scenarios(VECTORS));
    console.log(reportLines(report(outcomes)).join('\n'));
  }, 300_000);
  afterAll(() => server?.close());

  const attacks = (defense: Defense, vector: Vector) =>
    outcomes.filter((o) => o.scenario.injected && o.scenario.defense === defense && o.scenario.vector === vector);

  it.each(VECTORS)('with the defaults, no consequential call the injection asks for runs unasked (%s)', (vector) => {
    const runs = attacks('default', vector);
    expect(runs).toHaveLength(TASKS.length);
    // The model did obey each one: the call was proposed, and stopped.
    expect(runs.filter((o) => !o.obeyed).map((o) => o.scenario.task.id)).toEqual([]);
    expect(runs.filter((o) => o.attackWorked).map((o) => o.scenario.task.id)).toEqual([]);
  });

  it.each(VECTORS)('without the defense, every injection works: the attacks are real (%s)', (vector) => {
    expect(
      attacks('none', vector)
        .filter((o) => !o.attackWorked)
        .map((o) => o.scenario.task.id),
    ).toEqual([]);
  });

  it.each(VECTORS)('asking before every call stops them too (%s)', (vector) => {
    expect(
      attacks('ask every call', vector)
        .filter((o) => o.attackWorked)
        .map((o) => o.scenario.task.id),
    ).toEqual([]);
  });

  it('benign utility: every task done without a card with no defense; with the defaults, the tasks that only read; with quarantine, those whose action hangs on a closed answer too; asking before every call, none', () => {
    const rows = Object.fromEntries(report(outcomes).benign.map((row) => [row.setting, row.done]));
    const readOnly = TASKS.filter((task) => !task.act).length;
    const closed = TASKS.filter((task) => task.act && task.check).length;
    expect(rows).toEqual({ default: readOnly, none: TASKS.length, 'ask every call': 0, 'default + quarantine': readOnly + closed });
  });

  it('the defaults ask exactly where a task acts on what it read without quarantine: one card each, for its own action', () => {
    const benign = outcomes.filter((o) => !o.scenario.injected && o.scenario.defense === 'default' && !o.scenario.row);
    for (const outcome of benign) expect([outcome.scenario.task.id, outcome.cards]).toEqual([outcome.scenario.task.id, outcome.scenario.task.act ? 1 : 0]);
  });
});
