// MCP servers as tools, against the reference server (@modelcontextprotocol/server-everything).
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent, ChatRunner, defineTool, mcpServer, scriptedEngine, type ScriptedReply, type ValidationMode } from '../../src/index.js';
import { freePort, startEverythingServer, type EverythingServer } from '../support/mcp-everything.js';
import { collect } from '../support/run-events.js';

let server: EverythingServer;
beforeAll(async () => {
  server = await startEverythingServer();
});
afterAll(() => server.stop());

/** Every JSON-RPC message the client posted, in order. */
let posted: Array<{ method?: string; id?: unknown; params?: any }> = [];
const realFetch = globalThis.fetch;
beforeAll(() => {
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    if (init?.method === 'POST' && typeof init.body === 'string') posted.push(JSON.parse(init.body));
    return realFetch(input, init);
  });
});
afterEach(() => {
  posted = [];
});

const agents: Agent[] = [];
async function agentWith(replies: ScriptedReply[], validation: ValidationMode = 'auto') {
  const agent = await Agent.make(scriptedEngine(replies), { validation });
  agents.push(agent);
  return agent;
}
const calls = (...toolCalls: Array<{ name: string; arguments: unknown }>): ScriptedReply => ({ toolCalls });

describe('mcp: connecting and registering (server-everything)', () => {
  it('lists the server tools and registers them under their names, with their input schemas', async () => {
    const agent = await agentWith([]);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    expect(connection.tools).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-structured-content', 'trigger-long-running-operation']));
    expect(connection.name).toMatch(/everything/i);
    const echo = agent.registry.definitions().find((d) => d.name === 'echo');
    expect(echo?.parameters).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
    await connection.close();
  });

  it('maps annotations to policies: read-only tools run freely, a non-read-only non-idempotent one is not retried', async () => {
    const agent = await agentWith([]);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    expect(agent.registry.get('echo')).toMatchObject({ readOnly: true, idempotent: true, needsApproval: false });
    // readOnlyHint false, destructiveHint false, idempotentHint false
    expect(agent.registry.get('toggle-simulated-logging')).toMatchObject({ readOnly: false, idempotent: false, needsApproval: false });
    // readOnlyHint false, destructiveHint false, idempotentHint true
    expect(agent.registry.get('gzip-file-as-resource')).toMatchObject({ readOnly: false, idempotent: true, needsApproval: false });
    await connection.close();
  });

  it('registers only the allow-listed tools the server has, under the prefix', async () => {
    const agent = await agentWith([]);
    const connection = await agent.mcp(mcpServer({ url: server.url, tools: ['echo', 'get-sum', 'no-such-tool'], prefix: 'ev' }));
    expect(connection.tools).toEqual(['ev_echo', 'ev_get-sum']);
    expect(agent.registry.names()).toEqual(['ev_echo', 'ev_get-sum']);
    await connection.close();
  });

  it('applies policy overrides: "*" for every tool, a tool\'s own entry over it, the server timeout as default', async () => {
    const agent = await agentWith([]);
    const connection = await agent.mcp(
      mcpServer({
        url: server.url,
        tools: ['echo', 'get-sum'],
        timeoutMs: 7000,
        policy: { '*': { maxRetries: 1 }, echo: { needsApproval: true, timeoutMs: 1234 } },
      }),
    );
    expect(agent.registry.get('echo')).toMatchObject({ needsApproval: true, timeoutMs: 1234, maxRetries: 1 });
    expect(agent.registry.get('get-sum')).toMatchObject({ needsApproval: false, timeoutMs: 7000, maxRetries: 1 });
    await connection.close();
  });

  it('fits names to what model servers accept: other characters become "_", cut to 64', async () => {
    const agent = await agentWith([]);
    const connection = await agent.mcp(
      mcpServer({ url: server.url, tools: ['echo', 'trigger-long-running-operation'], prefix: 'my server.v2'.padEnd(40, 'x') }),
    );
    expect(connection.tools).toEqual(['my_server_v2xxxxxxxxxxxxxxxxxxxxxxxxxxxx_echo', 'my_server_v2xxxxxxxxxxxxxxxxxxxxxxxxxxxx_trigger-long-running-op']);
    expect(connection.tools.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
    await connection.close();
  });

  it('rejects with duplicate_tool on a taken name and registers none of the server tools', async () => {
    const agent = await agentWith([]);
    agent.tool(defineTool({ name: 'get-sum', description: 'mine', parameters: { type: 'object' }, idempotent: true, call: () => 0 }));
    await expect(agent.mcp(mcpServer({ url: server.url }))).rejects.toMatchObject({ code: 'duplicate_tool' });
    expect(agent.registry.names()).toEqual(['get-sum']);
  });

  it('close() removes the tools it registered', async () => {
    const agent = await agentWith([]);
    const connection = await agent.mcp(mcpServer({ url: server.url, tools: ['echo'] }));
    await connection.close();
    expect(agent.registry.names()).toEqual([]);
  });

  it('rejects with mcp_connect_failed, naming the URL without its credentials', async () => {
    const agent = await agentWith([]);
    const port = await freePort();
    const failure = await agent.mcp(mcpServer({ url: `http://alice:hunter2@127.0.0.1:${port}/mcp?token=s3cret` })).then(
      () => expect.unreachable('connected'),
      (error: Error & { code: string }) => error,
    );
    expect(failure).toMatchObject({ code: 'mcp_connect_failed' });
    expect(failure.message).toContain(`http://127.0.0.1:${port}/mcp`);
    expect(failure.message).not.toMatch(/hunter2|alice|s3cret/);
  });

  it('refuses a config that is not an http(s) URL with invalid_mcp_config', () => {
    expect(() => mcpServer({ url: 'file:///etc/passwd' })).toThrow(expect.objectContaining({ code: 'invalid_mcp_config' }));
  });
});

describe('mcp: calls (server-everything)', () => {
  it('echo, get-sum and get-structured-content reach the model as text and structured output', async () => {
    const agent = await agentWith([
      calls(
        { name: 'echo', arguments: { message: 'hi' } },
        { name: 'get-sum', arguments: { a: 1, b: 2 } },
        { name: 'get-structured-content', arguments: { location: 'Chicago' } },
      ),
      'done',
    ]);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    const result = await new ChatRunner().run(agent, 'go').result;
    const [echo, sum, weather] = result.toolResults;
    expect(echo).toMatchObject({ ok: true, output: 'Echo: hi' });
    expect(sum).toMatchObject({ ok: true, output: 'The sum of 1 and 2 is 3.' });
    expect(weather).toMatchObject({ ok: true, output: { temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) } });
    await connection.close();
  });

  it('structured output is checked against the outputSchema in no-eval mode too', async () => {
    const agent = await agentWith([calls({ name: 'get-structured-content', arguments: { location: 'New York' } }), 'done'], 'no-eval');
    const connection = await agent.mcp(mcpServer({ url: server.url, tools: ['get-structured-content'] }));
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults[0]).toMatchObject({ ok: true, output: { conditions: expect.any(String) } });
    await connection.close();
  });

  it('arguments are validated here: invalid ones never reach the server', async () => {
    const agent = await agentWith([calls({ name: 'get-sum', arguments: { a: 'one', b: 2 } }), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'invalid_arguments' }, attempts: 0 });
    expect(posted.filter((m) => m.method === 'tools/call')).toEqual([]);
    await connection.close();
  });

  it('other blocks are described by type and size', async () => {
    const agent = await agentWith([calls({ name: 'get-tiny-image', arguments: {} }), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults[0]).toMatchObject({ ok: true, output: expect.stringMatching(/\[image image\/png, \d+ bytes\]/) });
    await connection.close();
  });

  it('progress notifications become tool_progress events of the call', async () => {
    const agent = await agentWith([calls({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    const run = new ChatRunner().run(agent, 'go');
    const events = await collect(run);
    const callId = (await run.result).toolResults[0]!.id;
    const progress = events.filter((e) => e.type === 'tool_progress');
    expect(progress).toEqual([1, 2, 3].map((n) => ({ type: 'tool_progress', callId, progress: n, total: 3 })));
    const [request] = posted.filter((m) => m.method === 'tools/call');
    expect(request?.params?._meta?.progressToken).toBeDefined();
    await connection.close();
  });

  it('abort cancels the request on the server (notifications/cancelled)', async () => {
    const agent = await agentWith([calls({ name: 'trigger-long-running-operation', arguments: { duration: 30, steps: 30 } }), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    const run = new ChatRunner().run(agent, 'go');
    for await (const event of run.events) if (event.type === 'tool_progress') break;
    run.abort('user left');
    await expect(run.result).rejects.toMatchObject({ code: 'aborted' });
    const request = posted.find((m) => m.method === 'tools/call');
    await vi.waitFor(() =>
      expect(posted).toContainEqual(
        expect.objectContaining({ method: 'notifications/cancelled', params: expect.objectContaining({ requestId: request?.id }) }),
      ),
    );
    await connection.close();
  });

  it('a timeout cancels the request on the server and is a timeout result', async () => {
    const agent = await agentWith([calls({ name: 'trigger-long-running-operation', arguments: { duration: 30, steps: 30 } }), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url, policy: { 'trigger-long-running-operation': { timeoutMs: 300, maxRetries: 0 } } }));
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'timeout' }, attempts: 1 });
    const request = posted.find((m) => m.method === 'tools/call');
    await vi.waitFor(() =>
      expect(posted).toContainEqual(
        expect.objectContaining({ method: 'notifications/cancelled', params: expect.objectContaining({ requestId: request?.id }) }),
      ),
    );
    await connection.close();
  });
});
