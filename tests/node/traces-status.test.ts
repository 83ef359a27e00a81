// A failure's span status, checked with the OpenTelemetry SDK's in-memory exporter: the code and a
// short capped message, never the whole error text (a tool that fails with 2 MB of text, a model
// server whose error is as long), and no tool words (arguments, output) unless asked for.
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, scriptedEngine, ToolError } from '../../src/index.js';

const TWO_MB = 2 * 1024 * 1024;
/** The longest status description a span gets. */
const CAP = 200;

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { tracer: provider.getTracer('status-test'), spans: () => exporter.getFinishedSpans() };
}

/** Everything a span holds that an exporter sends, as text. */
const exported = (span: ReadableSpan) => JSON.stringify({ name: span.name, status: span.status, attributes: span.attributes, events: span.events });

const secretArgument = 'card-4111-1111-1111-1111';
const failing = defineTool({
  name: 'file_report',
  description: 'Files a report',
  parameters: { type: 'object', properties: { card: { type: 'string' } }, required: ['card'] },
  idempotent: false,
  call: ({ card }) => {
    throw new ToolError(`rejected (${card.length} digits): ${'x'.repeat(TWO_MB)}`);
  },
});

describe("a failed call's span", () => {
  it('carries the code and a capped message, not 2 MB of error text, and not the arguments', async () => {
    const { tracer, spans } = tracing();
    const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ name: 'file_report', arguments: { card: secretArgument } }] }, 'Could not.']))).tool(
      failing,
    );
    const result = await new ChatRunner().run(agent, 'File it', { tracer }).result;
    // The model still reads the tool's own message (cut by maxResultChars as any result).
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'tool_error' } });

    const call = spans().find((span) => span.name === 'execute_tool file_report')!;
    expect(call.status.code).toBe(2); // ERROR
    expect(call.status.message!.startsWith('tool_error: ')).toBe(true);
    expect(call.status.message!.length).toBeLessThanOrEqual(CAP);
    expect(call.attributes['error.type']).toBe('tool_error');
    expect(exported(call).length).toBeLessThan(2_000);
    // What the tool was given and gave back is tool content: opt-in in the GenAI conventions, never recorded here.
    for (const span of spans()) expect(exported(span)).not.toContain(secretArgument.slice(5));
  });

  it("a run whose model server fails with 2 MB of text: the run's and the request's spans are capped too", async () => {
    const { tracer, spans } = tracing();
    const agent = await Agent.make(scriptedEngine([{ error: { status: 500, message: `overloaded ${'y'.repeat(TWO_MB)}` } }]));
    const run = new ChatRunner().run(agent, 'hi', { tracer });
    await run.result.catch(() => undefined);
    const failed = spans().filter((span) => span.status.code === 2);
    expect(failed.map((span) => span.name).sort()).toEqual(['chat', 'invoke_agent']);
    for (const span of failed) {
      expect(span.status.message!.length).toBeLessThanOrEqual(CAP);
      expect(span.status.message).toMatch(/^http_error: /);
      expect(exported(span).length).toBeLessThan(2_000);
    }
  });

  it('a short message is kept whole, after its code', async () => {
    const { tracer, spans } = tracing();
    const tool = defineTool({
      name: 'shelf',
      description: 'x',
      parameters: { type: 'object', properties: {} },
      readOnly: true,
      call: () => {
        throw new ToolError('the shelf is empty');
      },
    });
    const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ name: 'shelf', arguments: {} }] }, 'ok']))).tool(tool);
    await new ChatRunner().run(agent, 'go', { tracer }).result;
    expect(spans().find((span) => span.name === 'execute_tool shelf')!.status.message).toBe('tool_error: the shelf is empty');
  });
});
