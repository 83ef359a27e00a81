// mcp-call: one MCP tool call through ambi-web (a ChatRunner run whose one call goes to
// server-everything's `get-sum`: our validation, policy and events, then the official client)
// against a bare `client.callTool` of the same tool on the same server, in the same run.
// Both sides talk to one server process on 127.0.0.1, each over its own session.
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Agent, ChatRunner, mcpServer, type Engine } from '../../src/index.js';
import { startEverythingServer } from '../../tests/support/mcp-everything.js';
import { callingEngine } from '../lib/calling-engine.js';
import { median, paired, spread, type Measurement } from '../lib/stats.js';

const SAMPLES = 15;
const CALLS_PER_ROUND = 40;
const FINAL_TEXT = 'The sum is 3.';
const EXPECTED = 'The sum of 1 and 2 is 3.';

/** A reusable in-process model: one `get-sum` call, then the final text once the result is in. */
const benchEngine = (): Engine => callingEngine({ name: 'get-sum', calls: 1, argsText: () => '{"a":1,"b":2}', finalText: FINAL_TEXT });

async function ours(url: string): Promise<{ run: () => Promise<void>; close: () => Promise<void> }> {
  const agent = await Agent.make(benchEngine());
  const connection = await agent.mcp(mcpServer({ url, tools: ['get-sum'] }));
  const runner = new ChatRunner(5);
  return {
    run: async () => {
      const result = await runner.run(agent, 'Add 1 and 2').result;
      const [call] = result.toolResults;
      if (!call?.ok || call.output !== EXPECTED || result.text !== FINAL_TEXT) throw new Error(`ours: unexpected result ${JSON.stringify(result.toolResults)}`);
    },
    close: () => connection.close(),
  };
}

async function theirs(url: string): Promise<{ run: () => Promise<void>; close: () => Promise<void> }> {
  const client = new Client({ name: 'bench-bare', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return {
    run: async () => {
      const result = await client.callTool({ name: 'get-sum', arguments: { a: 1, b: 2 } });
      const text = (result.content as Array<{ type: string; text?: string }>)[0]?.text;
      if (text !== EXPECTED) throw new Error(`theirs: unexpected result ${JSON.stringify(result)}`);
    },
    close: () => client.close(),
  };
}

/** Runs `run` `n` times back to back; returns microseconds per call. */
const perCall = (run: () => Promise<void>, n: number) => async () => {
  const start = performance.now();
  for (let i = 0; i < n; i++) await run();
  return ((performance.now() - start) * 1000) / n;
};

export async function mcpCall(): Promise<Measurement[]> {
  const server = await startEverything();
  try {
    const a = await ours(server.url);
    const b = await theirs(server.url);
    const times = await paired(perCall(a.run, CALLS_PER_ROUND), perCall(b.run, CALLS_PER_ROUND), { warmup: 3, samples: SAMPLES });
    await Promise.all([a.close(), b.close()]);
    const value = median(times.a);
    const baselineValue = median(times.b);
    return [
      {
        name: 'mcp-call',
        value,
        unit: 'µs/call',
        baseline: 'bare client.callTool (@modelcontextprotocol/client@2.4.0) of get-sum on the same server-everything process',
        baselineValue,
        ratio: value / baselineValue,
        target: '<= 1.2',
        note: `ours: a ChatRunner run with one get-sum call (validation, policy, events, loop); ±${pct(spread(times.a))} / ±${pct(spread(times.b))}; ${CALLS_PER_ROUND} calls x ${SAMPLES} rounds`,
      },
    ];
  } finally {
    void server.stop();
  }
}

/** The reference server on a free port (bench/run.mjs runs from the project root; the bundle is not where tests/support is). */
const startEverything = () => startEverythingServer(join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'));

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
