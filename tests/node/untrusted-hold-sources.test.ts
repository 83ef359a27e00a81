// Hold mode for tools whose results come from elsewhere: an MCP server's (a real one, over HTTP),
// and tools that cross a wire as descriptors (tool workers, the runner worker). Their results are
// held as any untrusted tool's; only the app's own policy may let a held value into an argument.
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, ChatRunner, mcpServer, type RunEvent, type ToolMessage } from '../../src/index.js';
import { toDescriptor } from '../../src/worker/wire/descriptor.js';
import { CANARY, calls, HELD_PAGE, leaked, PlannerEngine, sendEmail, steps } from '../support/hold.js';
import { startTestServer, type TestServer, text } from '../support/mcp-test-server.js';
import { collect } from '../support/run-events.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server with a page reader (open world, MCP's default) and a poster that says in its annotations it is harmless. */
async function pageServer() {
  const posted: unknown[] = [];
  server = await startTestServer([
    {
      definition: { name: 'fetch_page', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
      call: () => text(HELD_PAGE),
    },
    {
      definition: {
        name: 'post',
        inputSchema: { type: 'object', properties: { channel: { type: 'string' }, message: { type: 'string' } }, required: ['channel', 'message'] },
        // A server can say anything of its tool: nothing it says lets a held value in.
        annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false, heldArguments: { channel: 'allow', message: 'allow' } },
      },
      call: (args) => {
        posted.push(args);
        return text('posted');
      },
    },
  ]);
  return { url: server.url, posted };
}

const messageOf = (messages: readonly unknown[], id: string) =>
  JSON.parse((messages as ToolMessage[]).find((m) => m.role === 'tool' && m.toolCallId === id)!.content);
const approvals = (events: RunEvent[]) => events.filter((e): e is Extract<RunEvent, { type: 'approval_requested' }> => e.type === 'approval_requested');

describe('hold mode and MCP servers', () => {
  it('an open-world server tool’s result is held; its own annotations cannot let a held value into its arguments; the app’s policy can', async () => {
    const { url, posted } = await pageServer();
    const plan = () =>
      steps(
        calls(['f1', 'web_fetch_page']),
        calls(['p1', 'web_post', { channel: 'news', message: { $held: '$1' } }], ['p2', 'web_post', { channel: { $held: '$1' }, message: 'hi' }]),
        { text: 'ok' },
      );
    const engine = new PlannerEngine(plan());
    const agent = await Agent.make(engine, { untrusted: 'hold' });
    await agent.mcp(mcpServer({ url, prefix: 'web', acceptDefinitions: true, policy: { post: { heldArguments: { message: 'allow' }, heldOutput: 'plain' } } }));
    const run = new ChatRunner().run(agent, 'post the page to news');
    const events = await collect(run, (e) => e.type === 'approval_requested' && run.deny(e.call.id));
    const { messages } = await run.result;
    expect(messageOf(messages, 'f1')).toEqual({ held: '$1', from: 'web_fetch_page', type: 'string', length: JSON.stringify(HELD_PAGE).length });
    // `message` (the app said allow) ran unasked; `channel` (the server's annotation said allow, which counts for nothing) asked.
    expect(posted).toEqual([{ channel: 'news', message: HELD_PAGE }]);
    expect(approvals(events).map((e) => [e.call.id, e.untrusted?.held])).toEqual([['p2', [{ path: '/channel', id: '$1', from: 'web_fetch_page' }]]]);
    expect(messageOf(messages, 'p1')).toEqual({ ok: true, output: 'posted' });
    expect(leaked(engine.bodies)).toEqual([]);
  });

  it('a server that fails with the page in its error: the code reaches the model, the message is held', async () => {
    server = await startTestServer([
      {
        definition: { name: 'fetch_page', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
        call: () => ({ isError: true, content: [{ type: 'text', text: `failed: ${CANARY}` }] }),
      },
    ]);
    const engine = new PlannerEngine(steps(calls(['f1', 'web_fetch_page']), { text: 'it failed' }));
    const agent = await Agent.make(engine, { untrusted: 'hold' });
    await agent.mcp(mcpServer({ url: server.url, prefix: 'web', acceptDefinitions: true }));
    const { messages } = await new ChatRunner().run(agent, 'fetch').result;
    const content = messageOf(messages, 'f1');
    expect(content.ok).toBe(false);
    expect(typeof content.error.code).toBe('string');
    expect(content.error.message).toMatchObject({ held: '$1', from: 'web_fetch_page', type: 'string' });
    expect(leaked(engine.bodies)).toEqual([]);
  });
});

describe('hold mode across a wire', () => {
  it('heldArguments and heldOutput cross with a tool’s descriptor (tool workers, the runner worker)', () => {
    const descriptor = toDescriptor(sendEmail([], { heldOutput: 'plain' }));
    expect(descriptor).toMatchObject({ heldArguments: { body: 'allow', subject: 'allow', to: 'ask' }, heldOutput: 'plain' });
    expect(structuredClone(descriptor)).toEqual(descriptor);
  });
});
