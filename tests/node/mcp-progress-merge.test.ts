// Progress notifications of an MCP call, unread, are merged as text deltas are: a server that
// sends thousands cannot grow the buffer of a run nobody reads, and a reader still sees the latest.
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, ChatRunner, mcpServer, type RunEvent, scriptedEngine } from '../../src/index.js';
import { EventChannel } from '../../src/runner/events.js';
import { startTestServer, type TestServer, text } from '../support/mcp-test-server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const STEPS = 500;

describe('mcp: tool_progress of one call, unread, is merged', () => {
  it('a run read only after it ended holds one progress event per call, the latest', async () => {
    const server = await startTestServer([
      {
        definition: { name: 'chatty', inputSchema: { type: 'object', properties: { n: { type: 'number' } } }, annotations: { readOnlyHint: true } },
        call: async (args, { progress }) => {
          for (let step = 1; step <= STEPS; step++) await progress(step * Number(args.n), STEPS * Number(args.n));
          return text('done talking');
        },
      },
    ]);
    servers.push(server);
    const agent = await Agent.make(
      scriptedEngine([
        {
          toolCalls: [
            { name: 'chatty', arguments: { n: 1 } },
            { name: 'chatty', arguments: { n: 2 } },
          ],
        },
        'done',
      ]),
    );
    const connection = await agent.mcp(mcpServer({ url: server.url }));
    const run = new ChatRunner().run(agent, 'go');
    const result = await run.result;
    const events: RunEvent[] = [];
    for await (const event of run.events) events.push(event);
    const [first, second] = result.toolResults.map((r) => r.id);
    expect(events.filter((e) => e.type === 'tool_progress')).toEqual([
      { type: 'tool_progress', callId: first, progress: STEPS, total: STEPS },
      { type: 'tool_progress', callId: second, progress: 2 * STEPS, total: 2 * STEPS },
    ]);
    // Each progress comes before its call's result.
    const at = (predicate: (e: RunEvent) => boolean) => events.findIndex(predicate);
    expect(at((e) => e.type === 'tool_progress' && e.callId === first)).toBeLessThan(at((e) => e.type === 'tool_finished' && e.result.id === first));
    await connection.close();
  });
});

describe('EventChannel: the progress merge rule', () => {
  it('replaces the unread progress of the same call (and leaf) in place, drops a field the newer one lacks, and never a read one', async () => {
    const channel = new EventChannel();
    channel.push({ type: 'tool_progress', callId: 'a', progress: 1, total: 10, message: 'starting' });
    channel.push({ type: 'tool_progress', callId: 'b', progress: 1 });
    channel.push({ type: 'tool_progress', callId: 'a', progress: 1, leafId: 'leaf' });
    channel.push({ type: 'tool_progress', callId: 'a', progress: 2 });
    channel.push({ type: 'tool_progress', callId: 'a', progress: 3, leafId: 'leaf' });
    const reader = channel[Symbol.asyncIterator]();
    expect((await reader.next()).value).toEqual({ type: 'tool_progress', callId: 'a', progress: 2 });
    // Read: the next progress of that call is an event of its own.
    channel.push({ type: 'tool_progress', callId: 'a', progress: 4, total: 10 });
    channel.close();
    const rest: RunEvent[] = [];
    for (let step = await reader.next(); !step.done; step = await reader.next()) rest.push(step.value);
    expect(rest).toEqual([
      { type: 'tool_progress', callId: 'b', progress: 1 },
      { type: 'tool_progress', callId: 'a', progress: 3, leafId: 'leaf' },
      { type: 'tool_progress', callId: 'a', progress: 4, total: 10 },
    ]);
  });
});
