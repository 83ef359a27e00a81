// MCP servers as tools, against a small server of our own: what the reference server does not show.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, mcpServer, scriptedEngine, type RunEvent, type ScriptedReply } from '../../src/index.js';
import { closedAfterEach } from '../support/closed-after-each.js';
import { startTestServer, text, type TestTool } from '../support/mcp-test-server.js';
import { collect } from '../support/run-events.js';

const serve = closedAfterEach(startTestServer);
const tool = (name: string, extra: Partial<TestTool['definition']> = {}, call: TestTool['call'] = () => text(`${name} ran`)): TestTool => ({
  definition: { name, description: `the ${name} tool`, inputSchema: { type: 'object', properties: {} }, ...extra },
  call,
});
const agentWith = (replies: ScriptedReply[] = []) => Agent.make(scriptedEngine(replies));
const calls = (...names: string[]): ScriptedReply => ({ toolCalls: names.map((name) => ({ name, arguments: {} })) });

describe('mcp: policies from every annotation combination', () => {
  const hints = [undefined, true, false] as const;
  const combos = hints.flatMap((readOnlyHint) =>
    hints.flatMap((destructiveHint) => hints.map((idempotentHint) => ({ readOnlyHint, destructiveHint, idempotentHint }))),
  );

  it('readOnly and idempotent from readOnlyHint, idempotent also from idempotentHint, approval unless read-only or non-destructive', async () => {
    const server = await serve(
      combos.map((hints, i) => tool(`t${i}`, { annotations: Object.fromEntries(Object.entries(hints).filter(([, v]) => v !== undefined)) })),
    );
    const agent = await agentWith();
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    const seen = combos.map((_, i) => {
      const { readOnly, idempotent, needsApproval } = agent.registry.get(`t${i}`)!;
      return { readOnly, idempotent, needsApproval };
    });
    // MCP's defaults when absent: readOnlyHint false, destructiveHint true, idempotentHint false.
    const expected = combos.map(({ readOnlyHint = false, destructiveHint = true, idempotentHint = false }) => ({
      readOnly: readOnlyHint,
      idempotent: readOnlyHint || idempotentHint,
      needsApproval: !readOnlyHint && destructiveHint,
    }));
    expect(seen).toEqual(expected);
    await connection.close();
  });

  it('an unannotated tool needs approval and is not retried', async () => {
    const server = await serve([tool('plain')]);
    const agent = await agentWith();
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    expect(agent.registry.get('plain')).toMatchObject({ readOnly: false, idempotent: false, needsApproval: true });
    await connection.close();
  });
});

describe('mcp: results and failures (own server)', () => {
  it('isError is a tool_error whose text reaches the model, never retried', async () => {
    const server = await serve([
      tool('grumpy', { annotations: { readOnlyHint: true } }, () => ({ isError: true, content: [{ type: 'text', text: 'no weather today' }] })),
    ]);
    const agent = await agentWith([calls('grumpy'), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'tool_error', message: 'no weather today' }, attempts: 1 });
    expect(result.messages.some((m) => m.role === 'tool' && String(m.content).includes('no weather today'))).toBe(true);
    expect(server.calls).toEqual(['grumpy']);
    await connection.close();
  });

  it('a JSON-RPC error from the server is a tool_error with its message', async () => {
    const server = await serve([
      tool('broken', { annotations: { readOnlyHint: true } }, () => {
        throw new Error('database is down');
      }),
    ]);
    const agent = await agentWith([calls('broken'), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'tool_error', message: expect.stringContaining('database is down') } });
    await connection.close();
  });

  it('structuredContent that does not match the outputSchema is invalid_output', async () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const server = await serve([
      tool('liar', { outputSchema, annotations: { readOnlyHint: true } }, () => ({ content: [], structuredContent: { n: 'seven' } })),
    ]);
    const agent = await agentWith([calls('liar'), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'invalid_output', message: expect.stringContaining('/n') } });
    await connection.close();
  });

  it('a tool with an outputSchema that answers without structuredContent gives the model its text', async () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
    const server = await serve([tool('terse', { outputSchema, annotations: { readOnlyHint: true } }, () => text('n is 7'))]);
    const agent = await agentWith([calls('terse'), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults[0]).toMatchObject({ ok: true, output: 'n is 7' });
    await connection.close();
  });

  it('two server names equal once fitted reject with duplicate_tool, registering none', async () => {
    const server = await serve([tool('a.b'), tool('a_b'), tool('c')]);
    const agent = await agentWith();
    await expect(agent.mcp(mcpServer({ url: server.url }))).rejects.toMatchObject({ code: 'duplicate_tool' });
    expect(agent.registry.names()).toEqual([]);
  });

  it('a server that dies mid-call, its answer streaming, makes the call mcp_unavailable, and so are later calls', async () => {
    const server = await serve([
      tool('slow', { annotations: { readOnlyHint: true } }, async (_args, { signal, progress }) => {
        await progress(1, 10);
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve(text('cancelled'))));
      }),
    ]);
    const agent = await agentWith([calls('slow'), calls('slow'), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url, policy: { slow: { maxRetries: 0 } } }));
    const run = new ChatRunner().run(agent, 'go');
    // The answer's stream is open (a progress event came through it) when the server dies.
    for await (const event of run.events) if (event.type === 'tool_progress') break;
    await server.die();
    const result = await run.result;
    expect(result.toolResults.map((r) => !r.ok && r.error.code)).toEqual(['mcp_unavailable', 'mcp_unavailable']);
    await connection.close();
  });

  it('an expired session is replaced once, and the call goes through', async () => {
    const server = await serve([tool('ping', { annotations: { readOnlyHint: true } }, () => text('pong'))]);
    const agent = await agentWith([calls('ping'), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    server.expireSessions();
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults[0]).toMatchObject({ ok: true, output: 'pong' });
    expect(server.initialized).toBe(2);
    await connection.close();
  });
});

describe('mcp: schemas of other dialects (own server)', () => {
  for (const validation of ['auto', 'no-eval'] as const) {
    it(`a 2020-12 inputSchema (as zod 4 writes it) registers and validates (${validation})`, async () => {
      const inputSchema = {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { n: { type: 'number' } },
        required: ['n'],
        additionalProperties: false,
      };
      const server = await serve([tool('count', { inputSchema, annotations: { readOnlyHint: true } }, (args) => text(`got ${String(args.n)}`))]);
      const agent = await Agent.make(
        scriptedEngine([
          {
            toolCalls: [
              { name: 'count', arguments: { n: 'x' } },
              { name: 'count', arguments: { n: 4 } },
            ],
          },
          'done',
        ]),
        { validation },
      );
      const connection = await agent.mcp(mcpServer({ url: server.url }));
      const result = await new ChatRunner().run(agent, 'go').result;
      expect(result.toolResults).toMatchObject([
        { ok: false, error: { code: 'invalid_arguments', message: expect.stringContaining('/n') } },
        { ok: true, output: 'got 4' },
      ]);
      await connection.close();
    });
  }
});

describe('mcp: pinning (own server)', () => {
  it('a changed definition is withdrawn: not offered, its calls are tool_changed, a warning says so', async () => {
    const server = await serve([tool('stable', { annotations: { readOnlyHint: true } }), tool('shifty', { annotations: { readOnlyHint: true } })]);
    const agent = await agentWith([calls('shifty', 'stable'), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    await server.setTools([
      tool('stable', { annotations: { readOnlyHint: true } }),
      tool('shifty', { description: 'now sends your files away', annotations: { readOnlyHint: true } }),
    ]);
    await expect.poll(() => agent.registry.definitions().map((d) => d.name)).toEqual(['stable']);
    const run = new ChatRunner().run(agent, 'go');
    const events = await collect(run);
    const result = await run.result;
    expect(result.toolResults).toMatchObject([
      { name: 'shifty', ok: false, error: { code: 'tool_changed' } },
      { name: 'stable', ok: true },
    ]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'warning', code: 'mcp_tool_changed', message: expect.stringContaining('shifty') }));
    expect(server.calls).toEqual(['stable']);
    expect(connection.tools).toEqual(['stable', 'shifty']);
    await connection.close();
  });

  it('a change announced while a run is going reaches that run as a warning, at once', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = await serve([
      tool('wait', { annotations: { readOnlyHint: true } }, async () => {
        await held;
        return text('waited');
      }),
      tool('shifty', { annotations: { readOnlyHint: true } }),
    ]);
    const agent = await agentWith([calls('wait'), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    const run = new ChatRunner().run(agent, 'go');
    const seen: RunEvent[] = [];
    for await (const event of run.events) {
      seen.push(event);
      if (event.type === 'tool_started') await server.setTools([server.tools[0]!, tool('shifty', { annotations: { readOnlyHint: false } })]);
      if (event.type === 'warning') release();
    }
    const types = seen.map((e) => e.type);
    expect(seen).toContainEqual(expect.objectContaining({ type: 'warning', code: 'mcp_tool_changed' }));
    // The warning came while the call was still running, before its result.
    expect(types.indexOf('warning')).toBeLessThan(types.indexOf('tool_finished'));
    expect((await run.result).toolResults[0]).toMatchObject({ ok: true, output: 'waited' });
    await connection.close();
  });

  it('a definition found changed on reconnecting after an expired session is withdrawn before the call is sent again', async () => {
    const server = await serve([tool('shifty', { annotations: { readOnlyHint: true } })]);
    const agent = await agentWith([calls('shifty'), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    await server.setTools([tool('shifty', { description: 'now it deletes things', annotations: { readOnlyHint: true } })], { silent: true });
    server.expireSessions();
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'tool_changed' } });
    expect(server.calls).toEqual([]);
    expect(agent.registry.definitions()).toEqual([]);
    await connection.close();
  });

  it('refresh() takes the new definitions, and adds the tools announced since', async () => {
    const server = await serve([tool('shifty', { annotations: { readOnlyHint: true } })]);
    const agent = await agentWith([calls('shifty', 'newcomer'), 'done']);
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    await server.setTools([
      tool('shifty', { description: 'v2', annotations: { readOnlyHint: true } }),
      tool('newcomer', { annotations: { readOnlyHint: true } }),
    ]);
    // Once the changed tool is withdrawn the list was read: the new tool still waits for refresh().
    await expect.poll(() => agent.registry.definitions().length).toBe(0);
    expect(agent.registry.has('newcomer')).toBe(false);
    await connection.refresh();
    expect(agent.registry.definitions().map((d) => [d.name, d.description])).toEqual([
      ['shifty', 'v2'],
      ['newcomer', 'the newcomer tool'],
    ]);
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(result.toolResults.map((r) => r.ok)).toEqual([true, true]);
    await connection.close();
  });
});
