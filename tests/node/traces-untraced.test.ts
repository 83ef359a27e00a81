// A tracer given where `@opentelemetry/api` (an optional peer) cannot be loaded: the run goes on
// untraced, and one `trace_failed` warning says why.
import { expect, it, vi } from 'vitest';

it('runs untraced, saying so once, when @opentelemetry/api cannot be loaded', async () => {
  vi.resetModules();
  vi.doMock('@opentelemetry/api', () => {
    throw new Error('Cannot find package @opentelemetry/api');
  });
  const { Agent, ChatRunner, scriptedEngine } = await import('../../src/index.js');
  let spans = 0;
  const tracer = {
    startSpan: () => {
      spans++;
      return {};
    },
  };
  const agent = await Agent.make(scriptedEngine([{ toolCalls: [{ name: 'nothing', arguments: {} }] }, 'Done.']));
  const run = new ChatRunner().run(agent, 'go', { tracer });
  const warnings: string[] = [];
  for await (const event of run.events) if (event.type === 'warning') warnings.push(`${event.code}: ${event.message}`);
  expect((await run.result).text).toBe('Done.');
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/^trace_failed: The run is not traced: @opentelemetry\/api could not be loaded/);
  expect(spans).toBe(0);
  vi.doUnmock('@opentelemetry/api');
});
