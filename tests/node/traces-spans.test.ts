// OpenTelemetry from a run (`RunOptions.tracer`), checked with the SDK's in-memory exporter: the
// GenAI spans (invoke_agent, chat, execute_tool), their parent-child shape with a leaf nested under
// its call, their attributes, a tracer that throws, and the trace context an MCP call carries.
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, mcpServer, MemorySnapshotStore, scriptedEngine, ToolError, type RunTracer } from '../../src/index.js';
import { collect } from '../support/run-events.js';
import { startTestServer, type TestServer } from '../support/mcp-test-server.js';
import { spanTree } from '../support/span-tree.js';
import { SpanBuilder } from '../../src/extensions/traces/span-builder.js';
import type { RunEvent } from '../../src/index.js';

const counts = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens, totalTokens: promptTokens + completionTokens });
const empty = { type: 'object', properties: {} } as const;

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('ambi-web-test'), spans: () => exporter.getFinishedSpans() };
}

const byName = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);

const lookUp = defineTool({
  name: 'look_up',
  description: 'x',
  parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  readOnly: true,
  call: ({ word }) => `${word}: a bird`,
});

describe('spans of a run', () => {
  it("keep the events' order where their times cannot: one time for all, behind the run's start (a worker's batch, a lagging clock)", async () => {
    const api = await import('@opentelemetry/api');
    const { tracer, spans } = tracing();
    const start = 1_765_000_000_000;
    const builder = new SpanBuilder(
      api,
      tracer,
      { engine: { provider: 'ambi-web.scripted' } },
      (error) => {
        throw error;
      },
      start,
    );
    const events: RunEvent[] = [
      { type: 'run_started', runId: 'r', input: 'go' },
      { type: 'tool_call', call: { id: 'c', name: 'look_up', arguments: { word: 'wren' } } },
      { type: 'usage', usage: counts(3, 1) },
      { type: 'iteration_finished', iteration: 1, finishReason: 'tool_calls', toolCalls: 1 },
      { type: 'tool_started', callId: 'c', name: 'look_up', attempt: 1 },
      { type: 'tool_finished', result: { id: 'c', name: 'look_up', ok: true, output: 'a bird', attempts: 1, durationMs: 0 } },
      { type: 'text_delta', text: 'A bird.' },
      { type: 'usage', usage: counts(5, 2) },
      { type: 'iteration_finished', iteration: 2, finishReason: 'stop', toolCalls: 0 },
      { type: 'run_finished', result: { runId: 'r', text: 'A bird.', toolResults: [], messages: [], iterations: 2 } } as unknown as RunEvent,
    ];
    for (const event of events) builder.event(event, start - 5);
    // Tied, the second request's span sorted before the call the first one proposed.
    expect(spanTree(spans())).toEqual(['invoke_agent', '  chat', '  execute_tool look_up', '  chat']);
    const ms = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;
    for (const span of spans()) {
      expect(ms(span.startTime)).toBeGreaterThanOrEqual(start);
      expect(ms(span.endTime)).toBeGreaterThanOrEqual(ms(span.startTime));
    }
  });

  it('nest as the GenAI conventions say: chat and execute_tool under invoke_agent, a leaf under its spawn_leaf call', async () => {
    const { tracer, spans } = tracing();
    const engine = scriptedEngine([
      {
        toolCalls: [
          { name: 'look_up', arguments: { word: 'wren' } },
          { name: 'spawn_leaf', arguments: { task: 'French?' } },
        ],
        usage: counts(30, 10),
      },
      { toolCalls: [{ name: 'look_up', arguments: { word: 'troglodyte' } }], usage: counts(20, 5) }, // the leaf
      { text: 'Un troglodyte.', usage: counts(25, 4) },
      { text: 'A wren, un troglodyte.', usage: counts(60, 8) },
    ]);
    const agent = (await Agent.make(engine)).tool(lookUp).leaf({ store: new MemorySnapshotStore() });
    const result = await new ChatRunner().run(agent, 'What is a wren?', { tracer, conversation: 'conv-1' }).result;

    expect(spanTree(spans())).toEqual([
      'invoke_agent',
      '  chat',
      '  execute_tool look_up',
      '  execute_tool spawn_leaf',
      '    invoke_agent',
      '      chat',
      '      execute_tool look_up',
      '      chat',
      '  chat',
    ]);
    const all = spans();
    const [top, leaf] = byName(all, 'invoke_agent').sort((a, b) => (a.parentSpanContext ? 1 : 0) - (b.parentSpanContext ? 1 : 0));
    expect(top!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'ambi-web.scripted',
      'gen_ai.conversation.id': 'conv-1',
      'gen_ai.usage.input_tokens': 135,
      'gen_ai.usage.output_tokens': 27,
      'ambi.usage.requests': 4,
    });
    expect(leaf!.attributes['ambi.leaf.id']).toBeTypeOf('string');
    // Every span of the run in one trace.
    expect(new Set(all.map((span) => span.spanContext().traceId)).size).toBe(1);
    // A chat span per request: its usage and finish reason.
    const chats = byName(all, 'chat').sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
    expect(chats.map((span) => [span.attributes['gen_ai.usage.input_tokens'], span.attributes['gen_ai.response.finish_reasons']])).toEqual([
      [30, ['tool_calls']],
      [20, ['tool_calls']],
      [25, ['stop']],
      [60, ['stop']],
    ]);
    expect(chats.every((span) => span.kind === 2 /* CLIENT */ && span.attributes['gen_ai.operation.name'] === 'chat')).toBe(true);
    // An execute_tool span per call: the name and id the run reported, its attempts and outcome.
    const calls = byName(all, 'execute_tool look_up');
    expect(calls.map((span) => span.attributes['gen_ai.tool.call.id'])).toContain(result.toolResults[0]!.id);
    expect(calls[0]!.attributes).toMatchObject({
      'gen_ai.tool.name': 'look_up',
      'gen_ai.operation.name': 'execute_tool',
      'ambi.tool.attempts': 1,
      'ambi.tool.outcome': 'ok',
    });
    expect(result.toolResults.map((r) => r.id)).toContain(byName(all, 'execute_tool spawn_leaf')[0]!.attributes['gen_ai.tool.call.id']);
  });

  it('says how many attempts a call took and how it failed, with error.type and an ERROR status', async () => {
    const { tracer, spans } = tracing();
    let tries = 0;
    const flaky = defineTool({
      name: 'flaky',
      description: 'x',
      parameters: empty,
      idempotent: true,
      timeoutMs: 30,
      retryDelayMs: 1,
      call: (_args, { signal }) =>
        ++tries === 1 ? new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))) : 'fine at last',
    });
    const broken = defineTool({
      name: 'broken',
      description: 'x',
      parameters: empty,
      idempotent: false,
      call: () => {
        throw new ToolError('no such note');
      },
    });
    const engine = scriptedEngine([
      {
        toolCalls: [
          { name: 'flaky', arguments: {} },
          { name: 'broken', arguments: {} },
        ],
      },
      'Done.',
    ]);
    await new ChatRunner().run((await Agent.make(engine)).tool(flaky).tool(broken), 'go', { tracer }).result;
    const [flakySpan] = byName(spans(), 'execute_tool flaky');
    expect(flakySpan!.attributes).toMatchObject({ 'ambi.tool.attempts': 2, 'ambi.tool.outcome': 'ok' });
    expect(flakySpan!.events.map((event) => event.name)).toEqual(['attempt', 'retry', 'attempt']);
    expect(flakySpan!.status.code).toBe(0 /* UNSET */);
    const [brokenSpan] = byName(spans(), 'execute_tool broken');
    expect(brokenSpan!.attributes).toMatchObject({ 'ambi.tool.attempts': 1, 'ambi.tool.outcome': 'tool_error', 'error.type': 'tool_error' });
    expect(brokenSpan!.status).toEqual({ code: 2 /* ERROR */, message: 'tool_error: no such note' });
  });

  it('marks the request that failed and the run it failed, and makes no span for a request a budget stopped', async () => {
    const { tracer, spans } = tracing();
    const failing = await Agent.make(scriptedEngine([{ error: { status: 500, message: 'down' } }]));
    await new ChatRunner().run(failing, 'hi', { tracer }).result.catch(() => undefined);
    const [chat] = byName(spans(), 'chat');
    const [run] = byName(spans(), 'invoke_agent');
    expect(chat!.attributes['error.type']).toBe('http_error');
    expect(chat!.parentSpanContext?.spanId).toBe(run!.spanContext().spanId);
    expect(run!.attributes['error.type']).toBe('http_error');
    expect(run!.status.code).toBe(2);

    const budget = tracing();
    const spender = (await Agent.make(scriptedEngine([{ toolCalls: [{ name: 'look_up', arguments: { word: 'a' } }], usage: counts(90, 20) }]))).tool(lookUp);
    await new ChatRunner().run(spender, 'go', { tracer: budget.tracer, maxTokens: 100 }).result.catch(() => undefined);
    expect(spanTree(budget.spans())).toEqual(['invoke_agent', '  chat', '  execute_tool look_up']);
    expect(byName(budget.spans(), 'invoke_agent')[0]!.attributes['error.type']).toBe('budget_exceeded');
  });

  it('never fails the run when the tracer throws: the run goes on untraced and says so once', async () => {
    const throwing: RunTracer = {
      startSpan() {
        throw new Error('exporter is down');
      },
    };
    // A tracer whose spans throw from every method but their first.
    const spanThrowing: RunTracer = {
      startSpan: () =>
        new Proxy(
          {},
          {
            get: () => () => {
              throw new Error('span method failed');
            },
          },
        ),
    };
    for (const tracer of [throwing, spanThrowing]) {
      const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ name: 'look_up', arguments: { word: 'a' } }] }, 'Done.']))).tool(lookUp);
      const run = new ChatRunner().run(agent, 'go', { tracer });
      const events = await collect(run);
      expect((await run.result).text).toBe('Done.');
      const warnings = events.filter((e) => e.type === 'warning');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ code: 'trace_failed' });
    }
  });

  it('refuses a tracer that is not one before the run starts', async () => {
    const agent = await Agent.make(scriptedEngine(['Hi.']));
    expect(() => new ChatRunner().run(agent, 'hi', { tracer: {} as RunTracer })).toThrow(expect.objectContaining({ code: 'invalid_option' }));
  });
});

describe('an MCP call of a traced run', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('carries its execute_tool span’s traceparent to the server in _meta', async () => {
    server = await startTestServer([
      {
        definition: { name: 'echo_meta', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        call: (_args, { meta }) => ({ content: [{ type: 'text', text: JSON.stringify(meta ?? null) }] }),
      },
    ]);
    const { tracer, spans } = tracing();
    const agent = await Agent.make(scriptedEngine([{ toolCalls: [{ name: 'echo_meta', arguments: {} }] }, 'Done.']));
    await agent.mcp(mcpServer({ url: server.url }));
    const result = await new ChatRunner().run(agent, 'go', { tracer }).result;
    const sent = JSON.parse((result.toolResults[0] as { output: string }).output) as { traceparent: string; progressToken: unknown };
    const [call] = byName(spans(), 'execute_tool echo_meta');
    const { traceId, spanId } = call!.spanContext();
    expect(sent.traceparent).toBe(`00-${traceId}-${spanId}-01`);
    // The client's own progress token travels alongside.
    expect(sent.progressToken).toBeDefined();
  });

  it('sends no trace context when the run is not traced', async () => {
    server = await startTestServer([
      {
        definition: { name: 'echo_meta', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        call: (_args, { meta }) => ({ content: [{ type: 'text', text: JSON.stringify(meta ?? null) }] }),
      },
    ]);
    const agent = await Agent.make(scriptedEngine([{ toolCalls: [{ name: 'echo_meta', arguments: {} }] }, 'Done.']));
    await agent.mcp(mcpServer({ url: server.url }));
    const result = await new ChatRunner().run(agent, 'go').result;
    expect(JSON.parse((result.toolResults[0] as { output: string }).output)).not.toHaveProperty('traceparent');
  });
});
