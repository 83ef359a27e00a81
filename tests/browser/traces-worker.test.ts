// Traces through the WorkerRunner in real Chromium: the spans are made in the runner worker, as
// in-process, and exported on the page by the tracer given to run() (a Tracer cannot cross to the
// worker); an MCP call in the worker carries the page's execute_tool span to its server; budgets and
// cassettes cross too.
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, inject, it } from 'vitest';
import {
  Agent,
  type Cassette,
  ChatRunner,
  createWorkerRunner,
  defineTool,
  isAmbiError,
  MemorySnapshotStore,
  mcpServer,
  type RunTracer,
  replayEngine,
  type ScriptedReply,
  scriptedEngine,
} from '../../src/index.js';
import { collect } from '../support/run-events.js';
import { spanTree } from '../support/span-tree.js';
import { runnersClosedAfterEach } from '../support/worker-runners.js';

const runners = runnersClosedAfterEach();
const counts = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens, totalTokens: promptTokens + completionTokens });

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('ambi-web-browser-test'), spans: () => exporter.getFinishedSpans() };
}

const lookUp = defineTool({
  name: 'look_up',
  description: 'Look a word up',
  parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
  readOnly: true,
  call: ({ word }) => `${word}: a bird`,
});

/** A run with calls, a leaf and its own call, then an answer. */
const script = (): ScriptedReply[] => [
  {
    toolCalls: [
      { name: 'look_up', arguments: { word: 'wren' } },
      { name: 'spawn_leaf', arguments: { task: 'French?' } },
    ],
    usage: counts(30, 10),
  },
  { toolCalls: [{ name: 'look_up', arguments: { word: 'troglodyte' } }], usage: counts(20, 5) },
  { text: 'Un troglodyte.', usage: counts(25, 4) },
  { text: 'A wren, un troglodyte.', usage: counts(60, 8) },
];

/** What a test compares of a span besides its place in the tree. */
const described = (spans: ReadableSpan[]) =>
  spans
    .map((span) => ({
      name: span.name,
      kind: span.kind,
      tool: span.attributes['gen_ai.tool.name'],
      attempts: span.attributes['ambi.tool.attempts'],
      outcome: span.attributes['ambi.tool.outcome'],
      input: span.attributes['gen_ai.usage.input_tokens'],
      output: span.attributes['gen_ai.usage.output_tokens'],
      finish: span.attributes['gen_ai.response.finish_reasons'],
    }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

function replayRunner(cassette: Cassette) {
  return runners.keep(createWorkerRunner({ engine: replayEngine(cassette), leaf: {} }));
}

describe('spans through the WorkerRunner', () => {
  it('have the shape and attributes of the same run in-process, made on the page', async () => {
    const here = tracing();
    const agent = (await Agent.make(scriptedEngine(script()))).tool(lookUp).leaf({ store: new MemorySnapshotStore() });
    await new ChatRunner().run(agent, 'What is a wren?', { tracer: here.tracer }).result;

    const there = tracing();
    const runner = runners.runnerWith(script(), { leaf: {} }).tool(lookUp);
    const result = await runner.run('What is a wren?', { tracer: there.tracer }).result;

    const expected = [
      'invoke_agent',
      '  chat',
      '  execute_tool look_up',
      '  execute_tool spawn_leaf',
      '    invoke_agent',
      '      chat',
      '      execute_tool look_up',
      '      chat',
      '  chat',
    ];
    expect(spanTree(here.spans())).toEqual(expected);
    expect(spanTree(there.spans())).toEqual(expected);
    expect(described(there.spans())).toEqual(described(here.spans()));
    // The call ids on the page's spans are the worker's.
    const ids = there.spans().flatMap((span) => (span.attributes['gen_ai.tool.call.id'] ? [span.attributes['gen_ai.tool.call.id']] : []));
    expect(ids).toContain(result.toolResults[0]!.id);
    expect(result.usage).toEqual({ promptTokens: 135, completionTokens: 27, totalTokens: 162, requests: 4 });
  });

  it('an MCP call in the runner worker carries the page’s execute_tool span to the server', async () => {
    const { tracer, spans } = tracing();
    const runner = runners.runnerWith([{ toolCalls: [{ name: 'echo_meta', arguments: {} }] }, 'Done.']);
    await runner.mcp(mcpServer({ url: inject('mcpMetaUrl') }));
    const result = await runner.run('go', { tracer }).result;
    const sent = JSON.parse((result.toolResults[0] as { output: string }).output) as { traceparent: string };
    const call = spans().find((span) => span.name === 'execute_tool echo_meta')!;
    expect(sent.traceparent).toBe(`00-${call.spanContext().traceId}-${call.spanContext().spanId}-01`);
  });

  it('never fails the run when the tracer throws', async () => {
    const throwing: RunTracer = {
      startSpan() {
        throw new Error('exporter is down');
      },
    };
    const run = runners
      .runnerWith([{ toolCalls: [{ name: 'look_up', arguments: { word: 'a' } }] }, 'Done.'])
      .tool(lookUp)
      .run('go', { tracer: throwing });
    const events = await collect(run);
    expect((await run.result).text).toBe('Done.');
    expect(events.filter((e) => e.type === 'warning').map((e) => e.type === 'warning' && e.code)).toEqual(['trace_failed']);
  });
});

describe('budgets and cassettes through the WorkerRunner', () => {
  it('stops a run past maxTokens with budget_exceeded, its results kept', async () => {
    const runner = runners.runnerWith([{ toolCalls: [{ name: 'look_up', arguments: { word: 'a' } }], usage: counts(80, 40) }, { text: 'Never asked for.' }]);
    runner.tool(lookUp);
    const error = await runner.run('go', { maxTokens: 100 }).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'budget_exceeded')).toBe(true);
    expect(error).toMatchObject({ maxTokens: 100, usedTokens: 120, toolResults: [{ name: 'look_up', ok: true }] });
  });

  it('records in the worker (runner.cassette()) what an in-process agent records, and replays it there', async () => {
    const agent = (await Agent.make(scriptedEngine(script()), { record: true })).leaf({ store: new MemorySnapshotStore() }).tool(lookUp);
    await new ChatRunner().run(agent, 'What is a wren?').result;

    const recording = runners.runnerWith(script(), { leaf: {}, record: true }).tool(lookUp);
    const recorded = await recording.run('What is a wren?').result;
    const cassette = await recording.cassette();
    expect(cassette).toEqual(agent.cassette());

    expect((await replayRunner(cassette).tool(lookUp).run('What is a wren?').result).text).toBe(recorded.text);
    // One changed tool description: the replay names it.
    const changed = replayRunner(cassette).tool({ ...lookUp, description: 'Look a word up, in French' });
    const error = await changed.run('What is a wren?').result.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'replay_mismatch', path: '/tools/1/description' });
    expect((error as Error).message).toContain('(tool "look_up")');
  });

  it('says cassette() needs record: true', async () => {
    const error = await runners
      .runnerWith(['Hi.'])
      .cassette()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_option' });
  });
});
