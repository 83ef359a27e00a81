#!/usr/bin/env node
// The MCP client that the conformance suite drives: ambi-web's own `agent.mcp()`, loaded from
// the sources through Vite's module runner. The suite appends the server URL as the last
// argument and names the scenario in MCP_CONFORMANCE_SCENARIO. Exit code 0: the scenario ran.
import { createServer } from 'vite';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;

// What the scripted model does in each scenario: the tool calls it makes, then its answer.
const scripts = {
  initialize: [],
  tools_call: [{ toolCalls: [{ name: 'add_numbers', arguments: { a: 2, b: 3 } }] }],
  'sse-retry': [{ toolCalls: [{ name: 'test_reconnection', arguments: {} }] }],
};

const vite = await createServer({
  configFile: false,
  root: new URL('..', import.meta.url).pathname,
  logLevel: 'error',
  server: { middlewareMode: true, hmr: false, ws: false },
  appType: 'custom',
});
let failed = false;
try {
  const { Agent, ChatRunner, mcpServer, scriptedEngine } = await vite.ssrLoadModule('/src/index.ts');
  const replies = scripts[scenario];
  if (!replies) throw new Error(`no script for scenario ${scenario}`);
  const agent = await Agent.make(scriptedEngine([...replies, 'done']));
  // The suite's servers do not annotate their tools, so each would wait for approval, and their
  // definitions would expose every request (unannotated tools are untrusted): accept both here, as
  // the person running the suite does.
  const connection = await agent.mcp(mcpServer({ url, acceptDefinitions: true, policy: { '*': { needsApproval: false } } }));
  console.log(`connected to ${connection.name}: ${connection.tools.join(', ')}`);
  if (replies.length > 0) {
    const result = await new ChatRunner().run(agent, `conformance scenario ${scenario}`).result;
    for (const r of result.toolResults) console.log(`${r.name}: ${r.ok ? JSON.stringify(r.output) : `${r.error.code}: ${r.error.message}`}`);
    failed = result.toolResults.some((r) => !r.ok);
  }
  await connection.close();
} catch (error) {
  console.error(error);
  failed = true;
} finally {
  await vite.close();
}
process.exit(failed ? 1 : 0);
