// mcp-call: one MCP tool call through ambi-web (`agent.tools.execute`: decoding, validation, the
// attempt with its timeout and signal, the MCP tool's progress handler, the session, the
// official client, the result read back) against a bare `client.callTool` of the same tool on the
// same server given what ours gives it: a signal of its own, a timeout and a progress handler.
// mcp-connect: `agent.mcp(...)` to its tools registered, against `client.connect` + `listTools`.
// Both sides talk to one server-everything process on 127.0.0.1, each over its own session.
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Agent, mcpServer, scriptedEngine } from '../../src/index.js';
import { startEverythingServer } from '../../tests/support/mcp-everything.js';
import { paired, pairedFigure, spread, type Measurement } from '../lib/stats.js';

const SAMPLES = 15;
const CALLS_PER_ROUND = 40;
const EXPECTED = 'The sum of 1 and 2 is 3.';
/** What ours gives the client: its own timeout (15 s) and 5 s of grace. */
const TIMEOUT_MS = 20_000;

async function ours(url: string): Promise<{ run: () => Promise<void>; close: () => Promise<void> }> {
  const agent = await Agent.make(scriptedEngine([]));
  const connection = await agent.mcp(mcpServer({ url, tools: ['get-sum'] }));
  let id = 0;
  return {
    run: async () => {
      const result = await agent.tools.execute({ id: `c${id++}`, name: 'get-sum', arguments: '{"a":1,"b":2}' });
      if (!result.ok || result.output !== EXPECTED) throw new Error(`ours: unexpected result ${JSON.stringify(result)}`);
    },
    close: () => connection.close(),
  };
}

async function theirs(url: string): Promise<{ run: () => Promise<void>; close: () => Promise<void> }> {
  const client = new Client({ name: 'bench-bare', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  let progress = 0;
  return {
    run: async () => {
      const controller = new AbortController();
      const result = await client.callTool(
        { name: 'get-sum', arguments: { a: 1, b: 2 } },
        { signal: controller.signal, timeout: TIMEOUT_MS, onprogress: () => progress++ },
      );
      const text = (result.content as Array<{ type: string; text?: string }>)[0]?.text;
      if (text !== EXPECTED) throw new Error(`theirs: unexpected result ${JSON.stringify(result)}`);
    },
    close: () => client.close(),
  };
}

/** Runs `run` `n` times back to back; returns microseconds per call (this process's CPU time with BENCH_CPU=1, for comparing changes on a loaded machine). */
const perCall = (run: () => Promise<void>, n: number) => async () => {
  const cpu = process.env.BENCH_CPU === '1' ? process.cpuUsage() : undefined;
  const start = performance.now();
  for (let i = 0; i < n; i++) await run();
  if (cpu) {
    const { user, system } = process.cpuUsage(cpu);
    return (user + system) / n;
  }
  return ((performance.now() - start) * 1000) / n;
};

/** Milliseconds from nothing to a connection whose tools are known, then closed (outside the timing). */
const connecting = (open: () => Promise<() => Promise<void>>) => async () => {
  const start = performance.now();
  const close = await open();
  const ms = performance.now() - start;
  await close();
  return ms;
};

export async function mcpCall(): Promise<Measurement[]> {
  const server = await startEverything();
  try {
    const a = await ours(server.url);
    const b = await theirs(server.url);
    if (process.env.BENCH_OURS_ONLY === '1') {
      // For a profile of ours alone.
      for (let i = 0; i < 2000; i++) await a.run();
      await Promise.all([a.close(), b.close()]);
      return [];
    }
    const times = await paired(perCall(a.run, CALLS_PER_ROUND), perCall(b.run, CALLS_PER_ROUND), { warmup: 3, samples: SAMPLES });
    await Promise.all([a.close(), b.close()]);
    const agent = await Agent.make(scriptedEngine([]));
    const connects = await paired(
      connecting(async () => {
        const connection = await agent.mcp(mcpServer({ url: server.url, name: 'everything' }));
        if (!connection.tools.includes('get-sum')) throw new Error(`ours: tools ${connection.tools.join(', ')}`);
        return async () => {
          await connection.close();
          for (const name of connection.tools) agent.registry.unregister(name);
        };
      }),
      connecting(async () => {
        const client = new Client({ name: 'bench-bare', version: '1.0.0' });
        await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        const { tools } = await client.listTools();
        if (!tools.some((tool) => tool.name === 'get-sum')) throw new Error('theirs: no get-sum');
        return () => client.close();
      }),
      { warmup: 2, samples: 11 },
    );
    const call = pairedFigure(times.a, times.b);
    return [
      {
        name: 'mcp-call',
        unit: 'µs/call',
        baseline:
          'bare client.callTool (@modelcontextprotocol/client) of get-sum on the same server-everything process, with a signal of its own, a timeout and a progress handler',
        ...call,
        target: '<= 1.1',
        note: `ours: agent.tools.execute of the MCP tool (validation, the attempt with its timeout and signal, progress, the session, the result read back); overhead ${(call.value - call.baselineValue).toFixed(0)} µs per call; ±${pct(spread(times.a))} / ±${pct(spread(times.b))}; ${CALLS_PER_ROUND} calls x ${SAMPLES} rounds`,
      },
      {
        name: 'mcp-connect',
        unit: 'ms',
        baseline: 'new Client + client.connect(StreamableHTTPClientTransport) + listTools on the same server',
        ...pairedFigure(connects.a, connects.b),
        target: '<= 1.3',
        note: `ours: agent.mcp(mcpServer({ url })) until its tools are registered (schemas checked, definitions pinned); ±${pct(spread(connects.a))} / ±${pct(spread(connects.b))}; 11 rounds`,
      },
    ];
  } finally {
    void server.stop();
  }
}

/** The reference server on a free port (bench/run.mjs runs from the project root; the bundle is not where tests/support is). */
const startEverything = () => startEverythingServer(join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'));

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
