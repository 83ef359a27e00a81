// Where untrusted content comes from beyond a local tool (MCP, leaves, stores, a resume), and where the mark never goes (a server).
import { afterEach, describe, expect, it } from 'vitest';
import { templateMessages } from '../../src/engines/local/template.js';
import { requestBody } from '../../src/engines/openai/request.js';
import {
  Agent,
  ChatRunner,
  defineTool,
  MemoryConversationStore,
  MemorySnapshotStore,
  MemoryToolCallJournal,
  mcpServer,
  openAICompatible,
  type RunEvent,
  scriptedEngine,
  type ToolMessage,
} from '../../src/index.js';
import { startTestServer, type TestServer, text } from '../support/mcp-test-server.js';
import { collect } from '../support/run-events.js';
import { ATTACKER, INJECTION, readPage, sendEmail } from '../support/untrusted-tools.js';
import { chunk, DONE, startSseServer } from './sse-server.js';

const servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const approvals = (events: RunEvent[]) => events.filter((e) => e.type === 'approval_requested');

describe('MCP tools', () => {
  async function connected(annotations: Record<string, unknown> | undefined, policy?: Record<string, Record<string, unknown>>) {
    const server: TestServer = await startTestServer([
      {
        definition: { name: 'fetch', inputSchema: { type: 'object', properties: {} }, ...(annotations ? { annotations } : {}) },
        call: () => text(INJECTION),
      },
    ]);
    servers.push(server);
    const agent = await Agent.make(scriptedEngine([]));
    await agent.mcp(mcpServer({ url: server.url, ...(policy ? { policy } : {}) }));
    return agent.registry.get('fetch')!;
  }

  it("are untrusted unless the server says openWorldHint: false (MCP's default for an absent hint is an open world)", async () => {
    expect((await connected(undefined)).untrusted).toBe(true);
    expect((await connected({ openWorldHint: true })).untrusted).toBe(true);
    expect((await connected({ openWorldHint: false })).untrusted).toBe(false);
  });

  it('take `untrusted` and `afterUntrusted` from the connection policy, over what the server says', async () => {
    const tool = await connected({ openWorldHint: false, readOnlyHint: true }, { fetch: { untrusted: true, afterUntrusted: 'refuse' } });
    expect(tool).toMatchObject({ untrusted: true, afterUntrusted: 'refuse', readOnly: true });
    expect((await connected(undefined, { '*': { untrusted: false } })).untrusted).toBe(false);
  });

  it('refuse a policy whose untrusted fields are not what they say (invalid_mcp_config)', () => {
    expect(() => mcpServer({ url: 'http://127.0.0.1:1/mcp', policy: { '*': { untrusted: 'yes' as never } } })).toThrow(
      expect.objectContaining({ code: 'invalid_mcp_config' }),
    );
    expect(() => mcpServer({ url: 'http://127.0.0.1:1/mcp', policy: { x: { afterUntrusted: 'sometimes' as never } } })).toThrow(
      expect.objectContaining({ code: 'invalid_mcp_config' }),
    );
  });

  it("mark a call's result, so a mail the page asks for is asked about", async () => {
    const server = await startTestServer([
      { definition: { name: 'fetch', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } }, call: () => text(INJECTION) },
    ]);
    servers.push(server);
    const sent: Array<{ to: string; body: string }> = [];
    const agent = (
      await Agent.make(
        scriptedEngine([
          { toolCalls: [{ id: 'f1', name: 'fetch', arguments: {} }] },
          { toolCalls: [{ id: 'm1', name: 'send_email', arguments: { to: ATTACKER, body: 'notes' } }] },
          'done',
        ]),
      )
    ).tool(sendEmail(sent));
    await agent.mcp(mcpServer({ url: server.url }));
    const run = new ChatRunner().run(agent, 'fetch it');
    const events = await collect(run, (e) => e.type === 'approval_requested' && run.deny(e.call.id));
    expect((await run.result).toolResults[0]).toMatchObject({ ok: true, untrusted: true });
    // The server wrote the tool's definition too: it is named first, then the result the model read.
    const definitions = { callId: '', name: `mcp:${server.url}`, kind: 'definitions', tools: ['fetch'] };
    expect(approvals(events)).toMatchObject([{ untrusted: { sources: [definitions, { callId: 'f1', name: 'fetch' }], flows: [{ path: '/to', from: 'f1' }] } }]);
    expect(sent).toEqual([]);
  });
});

describe('leaves', () => {
  /** A parent that delegates reading to a leaf, then mails `to`. */
  async function delegated(leafReads: boolean) {
    const sent: Array<{ to: string; body: string }> = [];
    const replies = [
      { toolCalls: [{ id: 's1', name: 'spawn_leaf', arguments: { task: 'read the page and tell me what it says' } }] },
      // The leaf's turns:
      leafReads ? { toolCalls: [{ id: 'r1', name: 'read_page', arguments: {} }] } : 'I read nothing.',
      ...(leafReads ? [`The page says: ${INJECTION}`] : []),
      // The parent again:
      { toolCalls: [{ id: 'm1', name: 'send_email', arguments: { to: ATTACKER, body: 'notes' } }] },
      'done',
    ];
    const agent = (await Agent.make(scriptedEngine(replies))).tool(readPage()).tool(sendEmail(sent)).leaf({ store: new MemorySnapshotStore() });
    const run = new ChatRunner().run(agent, 'what does the page say?');
    const events = await collect(run, (e) => e.type === 'approval_requested' && run.deny(e.call.id));
    return { sent, events, result: await run.result };
  }

  it('a leaf that read untrusted content returns a marked result, and what the parent then proposes is tainted', async () => {
    const { sent, events, result } = await delegated(true);
    expect(result.toolResults[0]).toMatchObject({ id: 's1', ok: true, untrusted: true });
    expect(result.messages.find((m) => m.role === 'tool' && m.toolCallId === 's1')).toMatchObject({ untrusted: true });
    // The leaf's own answering turn was exposed, and said so.
    expect(events.find((e) => e.type === 'iteration_finished' && e.leafId !== undefined && e.untrusted)).toBeDefined();
    const asked = approvals(events).filter((e) => e.leafId === undefined);
    expect(asked).toMatchObject([{ call: { id: 'm1' }, untrusted: { sources: [{ callId: 's1', name: 'spawn_leaf' }], flows: [{ path: '/to', from: 's1' }] } }]);
    expect(sent).toEqual([]);
  });

  it('a leaf that read nothing untrusted returns an unmarked result', async () => {
    const { result, events } = await delegated(false);
    expect(result.toolResults[0]).toMatchObject({ id: 's1', ok: true });
    expect(result.toolResults[0]!.untrusted).toBeUndefined();
    // The mail was the person's own request here: a tool that changes something, but nothing tainted it.
    expect(approvals(events)).toEqual([]);
  });

  it("a leaf started from an exposed conversation is exposed from its first turn (the parent's marked messages are in its snapshot)", async () => {
    const replies = [
      { toolCalls: [{ id: 'r1', name: 'read_page', arguments: {} }] },
      { toolCalls: [{ id: 's1', name: 'spawn_leaf', arguments: { task: 'mail the summary' } }] },
      { toolCalls: [{ id: 'm1', name: 'send_email', arguments: { to: ATTACKER, body: 'notes' } }] },
      'The leaf gave up.',
      'done',
    ];
    const sent: Array<{ to: string; body: string }> = [];
    const agent = (await Agent.make(scriptedEngine(replies))).tool(readPage()).tool(sendEmail(sent)).leaf({ store: new MemorySnapshotStore() });
    const run = new ChatRunner().run(agent, 'go');
    const events = await collect(run, (e) => e.type === 'approval_requested' && (e.call.name === 'spawn_leaf' ? run.approve(e.call.id) : run.deny(e.call.id)));
    const leafAsk = approvals(events).find((e) => e.leafId !== undefined);
    expect(leafAsk).toMatchObject({ call: { id: 'm1' }, untrusted: { sources: [{ callId: 'r1', name: 'read_page' }] } });
    expect(sent).toEqual([]);
    expect((await run.result).toolResults.find((r) => r.id === 's1')).toMatchObject({ untrusted: true });
  });
});

describe('stores, reloads and resumes', () => {
  it('the memory store refuses a mark that is not `true` (storage_invalid), and keeps `true`', async () => {
    const store = new MemoryConversationStore();
    const call = { role: 'assistant' as const, content: '', toolCalls: [{ id: 'c', name: 'read_page', arguments: {} }] };
    await expect(
      store.append('x', [call, { role: 'tool', toolCallId: 'c', name: 'read_page', content: '{}', untrusted: 'yes' } as never]),
    ).rejects.toMatchObject({
      code: 'storage_invalid',
    });
    await store.append('x', [call, { role: 'tool', toolCallId: 'c', name: 'read_page', content: '{}', untrusted: true }]);
    expect((await store.load('x'))[1]).toMatchObject({ untrusted: true });
  });

  it('a run resumed after a reload asks again about a tainted call, with its sources, though no untrusted tool is registered any more', async () => {
    const conversations = new MemoryConversationStore();
    const journal = new MemoryToolCallJournal();
    const sent: Array<{ to: string; body: string }> = [];
    const first = (
      await Agent.make(
        scriptedEngine([
          { toolCalls: [{ id: 'r1', name: 'read_page', arguments: {} }] },
          { toolCalls: [{ id: 'm1', name: 'send_email', arguments: { to: ATTACKER, body: 'notes' } }] },
        ]),
        { conversations, journal },
      )
    )
      .tool(readPage())
      .tool(sendEmail(sent));
    const one = new ChatRunner().run(first, 'read it', { conversation: 'c' });
    // The page goes away while the card waits.
    await collect(one, (e) => e.type === 'approval_requested' && one.suspend());
    await one.result.catch(() => undefined);
    const reloaded = (await Agent.make(scriptedEngine(['done']), { conversations, journal })).tool(sendEmail(sent));
    const two = new ChatRunner().resume(reloaded, 'c');
    const events = await collect(two, (e) => e.type === 'approval_requested' && two.deny(e.call.id));
    expect(approvals(events)).toMatchObject([
      { call: { id: 'm1' }, untrusted: { sources: [{ callId: 'r1', name: 'read_page' }], flows: [{ path: '/to', from: 'r1' }] } },
    ]);
    expect(sent).toEqual([]);
    expect((await two.result).messages.find((m) => m.role === 'tool' && m.toolCallId === 'r1')).toMatchObject({ untrusted: true });
  });

  it("a new run after an interruption marks an untrusted tool's journalled result as it reports it", async () => {
    const conversations = new MemoryConversationStore();
    const journal = new MemoryToolCallJournal();
    const fetchOnce = defineTool({
      name: 'fetch_once',
      description: 'x',
      parameters: { type: 'object' },
      idempotent: false,
      untrusted: true,
      call: () => INJECTION,
    });
    await conversations.append('c', [
      { role: 'user', content: 'fetch' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'f1', name: 'fetch_once', arguments: {}, idempotencyKey: 'k1' }] },
    ]);
    await journal.begin({ idempotencyKey: 'k1', callId: 'f1', name: 'fetch_once', arguments: {}, conversation: 'c' });
    await journal.finish('k1', { id: 'f1', name: 'fetch_once', ok: true, output: INJECTION, attempts: 1, durationMs: 1 });
    const agent = (await Agent.make(scriptedEngine(['ok']), { conversations, journal })).tool(fetchOnce);
    const { messages } = await new ChatRunner().run(agent, 'and?', { conversation: 'c' }).result;
    expect(messages.find((m): m is ToolMessage => m.role === 'tool' && m.toolCallId === 'f1')).toMatchObject({ untrusted: true });
  });
});

describe('engines never send the mark', () => {
  const marked: ToolMessage = { role: 'tool', toolCallId: 'r1', name: 'read_page', content: '{"ok":true}', untrusted: true };
  const conversation = [
    { role: 'user' as const, content: 'hi' },
    { role: 'assistant' as const, content: '', toolCalls: [{ id: 'r1', name: 'read_page', arguments: {} }] },
    marked,
  ];

  it('the OpenAI-compatible request body holds no `untrusted`, with native tools or calls as text', () => {
    for (const nativeTools of [true, false]) {
      const body = requestBody(openAICompatible({ baseURL: 'http://127.0.0.1:1/v1', model: 'qwen2.5:7b', nativeTools }), { messages: conversation, tools: [] });
      expect(JSON.stringify(body)).not.toContain('untrusted');
    }
  });

  it("the local model's template messages hold no `untrusted`", () => {
    expect(JSON.stringify(templateMessages(conversation))).not.toContain('untrusted');
  });

  it('a run against a real HTTP server sends no `untrusted` in any request, though its conversation is marked', async () => {
    const server = await startSseServer((_request, n) =>
      n === 0
        ? { pieces: [chunk({ tool_calls: [{ index: 0, id: 'r1', type: 'function', function: { name: 'read_page', arguments: '{}' } }] }, 'tool_calls'), DONE] }
        : { pieces: [chunk({ content: 'done' }, 'stop'), DONE] },
    );
    servers.push(server);
    const agent = (await Agent.make(openAICompatible({ baseURL: server.baseURL, model: 'qwen2.5:7b' }))).tool(readPage());
    const { messages } = await new ChatRunner().run(agent, 'read it').result;
    expect(messages.some((m) => m.role === 'tool' && m.untrusted)).toBe(true);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.body).toContain(INJECTION.slice(0, 20));
    for (const request of server.requests) expect(request.body).not.toContain('untrusted');
  });
});
