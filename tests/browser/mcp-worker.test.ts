// MCP servers as tools through the WorkerRunner, in real Chromium: the connection and the client live in the runner worker.
import { describe, expect, inject, it } from 'vitest';
import { mcpServer, type RunEvent, type ScriptedReply, type ValidationMode, type WorkerRunner } from '../../src/index.js';
import { runnersClosedAfterEach } from '../support/worker-runners.js';
import { collect } from '../support/run-events.js';

const url = inject('mcpEverythingUrl');
const runners = runnersClosedAfterEach();

const runnerWith = (replies: ScriptedReply[], validation: ValidationMode = 'auto'): WorkerRunner => runners.runnerWith(replies, { validation });
const calls = (...toolCalls: Array<{ name: string; arguments: unknown }>): ScriptedReply => ({ toolCalls });

describe('WorkerRunner.mcp (server-everything, real Chromium)', () => {
  it('connects from the runner worker and registers the server tools, allow-listed and prefixed', async () => {
    const runner = runnerWith([]);
    const connection = await runner.mcp(mcpServer({ url, tools: ['echo', 'get-sum'], prefix: 'ev' }));
    expect(connection.name).toMatch(/everything/i);
    expect(connection.tools).toEqual(['ev_echo', 'ev_get-sum']);
    await connection.close();
    expect(connection.tools).toEqual([]);
  });

  for (const validation of ['auto', 'no-eval'] as const) {
    it(`echo, get-sum and get-structured-content run through the worker (${validation})`, async () => {
      const runner = runnerWith(
        [
          calls(
            { name: 'echo', arguments: { message: 'hi' } },
            { name: 'get-sum', arguments: { a: 2, b: 3 } },
            { name: 'get-structured-content', arguments: { location: 'Los Angeles' } },
          ),
          'done',
        ],
        validation,
      );
      const connection = await runner.mcp(mcpServer({ url }));
      const result = await runner.run('go').result;
      expect(result.toolResults).toMatchObject([
        { ok: true, output: 'Echo: hi' },
        { ok: true, output: 'The sum of 2 and 3 is 5.' },
        { ok: true, output: { temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) } },
      ]);
      await connection.close();
    });
  }

  it('invalid arguments are refused in the worker before the server', async () => {
    const runner = runnerWith([calls({ name: 'get-sum', arguments: { a: 'two' } }), 'done'], 'no-eval');
    const connection = await runner.mcp(mcpServer({ url }));
    const result = await runner.run('go').result;
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'invalid_arguments' }, attempts: 0 });
    await connection.close();
  });

  it('progress notifications reach the page as tool_progress events', async () => {
    const runner = runnerWith([calls({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }), 'done']);
    const connection = await runner.mcp(mcpServer({ url }));
    const run = runner.run('go');
    const events = await collect(run);
    const callId = (await run.result).toolResults[0]!.id;
    expect(events.filter((e) => e.type === 'tool_progress')).toEqual([1, 2, 3].map((progress) => ({ type: 'tool_progress', callId, progress, total: 3 })));
    await connection.close();
  });

  it('abort from the page ends a running MCP call as aborted', async () => {
    const runner = runnerWith([calls({ name: 'trigger-long-running-operation', arguments: { duration: 30, steps: 30 } }), 'done']);
    const connection = await runner.mcp(mcpServer({ url }));
    const run = runner.run('go');
    const seen: RunEvent[] = [];
    for await (const event of run.events) {
      seen.push(event);
      if (event.type === 'tool_progress') run.abort('user left');
    }
    await expect(run.result).rejects.toMatchObject({ code: 'aborted' });
    expect(seen).toContainEqual(
      expect.objectContaining({ type: 'tool_finished', result: expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'aborted' }) }) }),
    );
    await connection.close();
  });

  it('a timeout ends a running MCP call as timeout', async () => {
    const runner = runnerWith([calls({ name: 'trigger-long-running-operation', arguments: { duration: 30, steps: 30 } }), 'done']);
    const connection = await runner.mcp(mcpServer({ url, policy: { 'trigger-long-running-operation': { timeoutMs: 300, maxRetries: 0 } } }));
    const result = await runner.run('go').result;
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'timeout' }, attempts: 1 });
    await connection.close();
  });

  it('a server that cannot be reached rejects with mcp_connect_failed, across the boundary, without credentials', async () => {
    const runner = runnerWith([]);
    const failure = await runner.mcp(mcpServer({ url: 'http://bob:pw@127.0.0.1:9/mcp?key=s3cret' })).then(
      () => expect.unreachable('connected'),
      (error: Error & { code: string }) => error,
    );
    expect(failure).toMatchObject({ code: 'mcp_connect_failed' });
    expect(failure.message).toContain('http://127.0.0.1:9/mcp');
    expect(failure.message).not.toMatch(/bob|pw@|s3cret/);
  });
});

describe('runner.mcp: a config the page cannot send as it is', () => {
  it('is refused with invalid_mcp_config, checked in the runner worker (a bad URL) or as it crosses (a function)', async () => {
    const runner = runnerWith([]);
    await expect(runner.mcp({ url: 'ftp://127.0.0.1/mcp' })).rejects.toMatchObject({ code: 'invalid_mcp_config' });
    const headers = { authorization: (() => 'Bearer x') as unknown as string };
    await expect(runner.mcp({ url, headers })).rejects.toMatchObject({ code: 'invalid_mcp_config' });
  });
});

describe('runner.mcp: connecting is bounded (real Chromium)', () => {
  it("a server that never answers: the config's timeoutMs bounds the attempt in the worker (mcp_connect_failed)", async () => {
    const runner = runnerWith([]);
    const silent = inject('mcpSilentUrl');
    await expect(runner.mcp(mcpServer({ url: silent, timeoutMs: 400 }))).rejects.toMatchObject({
      code: 'mcp_connect_failed',
      message: `Could not use the MCP server at ${silent}: it did not answer within 400 ms`,
    });
  });

  it('the signal stops the wait on the page at once (aborted), the worker still bounded by timeoutMs', async () => {
    const runner = runnerWith([]);
    const controller = new AbortController();
    const connecting = runner.mcp(mcpServer({ url: inject('mcpSilentUrl') }), { signal: controller.signal });
    controller.abort();
    await expect(connecting).rejects.toMatchObject({ code: 'aborted' });
  });

  it('a connection the worker completes after the page gave up is closed: its tools are not left registered', async () => {
    const runner = runnerWith([]);
    // The worker up first, so that the abort below comes while the worker connects.
    await (await runner.mcp(mcpServer({ url, prefix: 'first' }))).close();
    const controller = new AbortController();
    const connecting = runner.mcp(mcpServer({ url: inject('mcpDelayedUrl') }), { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(connecting).rejects.toMatchObject({ code: 'aborted' });
    // Well past the proxy's delays (each of the eight or so requests of connecting waits 150 ms), the
    // late connection has come and gone: the same tools, unprefixed, register again without a clash.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const again = await runner.mcp(mcpServer({ url }));
    expect(again.tools).toContain('echo');
    await again.close();
  });
});
