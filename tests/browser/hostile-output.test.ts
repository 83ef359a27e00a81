// Structured output and a context budget through the WorkerRunner: a JSON Schema crosses as data; a zod schema stays on the page, which parses each answer.
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { RunEvent } from '../../src/index.js';
import { runnersClosedAfterEach } from '../support/worker-runners.js';

const { runnerWith: runnerFor } = runnersClosedAfterEach();

async function eventsOf(run: { events: AsyncIterable<RunEvent> }): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run.events) events.push(event);
  return events;
}

const weather = { type: 'object', properties: { city: { type: 'string' }, celsius: { type: 'integer' } }, required: ['city', 'celsius'] } as const;

describe('WorkerRunner.run(input, { output })', () => {
  test('a JSON Schema crosses to the worker: wrong answers are retried there, the output comes back', async () => {
    const runner = runnerFor(['sunny', '{"city": "Paris", "celsius": 21}']);
    const run = runner.run('Paris?', { output: weather });
    const result = await run.result;
    expect(result.output).toEqual({ city: 'Paris', celsius: 21 });
    expect(result.iterations).toBe(2);
    expect(result.messages.some((m) => m.role === 'user' && m.origin === 'runtime' && /does not match the output schema/.test(String(m.content)))).toBe(true);
  });

  test('invalid_output after the retries, as a coded error on the page', async () => {
    const runner = runnerFor(['a', 'b']);
    const error = await runner.run('Paris?', { output: weather, maxOutputRetries: 1 }).result.catch((e) => e);
    expect(error.code).toBe('invalid_output');
  });

  test('a zod schema: its JSON Schema crosses, the page parses the answer with it (transforms apply), events agree', async () => {
    const schema = z.object({ title: z.string(), when: z.string().transform((text) => new Date(text)) });
    const runner = runnerFor(['{"title": 3}', '{"title": "Launch", "when": "2026-01-02T00:00:00Z"}']);
    const run = runner.run('Plan it', { output: schema });
    const events = await eventsOf(run);
    const result = await run.result;
    expect(result.output?.when).toBeInstanceOf(Date);
    expect(result.output?.when.toISOString()).toBe('2026-01-02T00:00:00.000Z');
    const finished = events.at(-1);
    expect(finished?.type).toBe('run_finished');
    if (finished?.type === 'run_finished') expect(finished.result.output).toBe(result.output);
  });

  test('a zod refinement JSON Schema cannot carry is checked on the page for each answer: a wrong one is asked again, as in-process', async () => {
    const schema = z.object({ n: z.number().refine((n) => n % 2 === 0, 'must be even') });
    const run = runnerFor(['{"n": 3}', '{"n": 4}']).run('Even?', { output: schema });
    const result = await run.result;
    expect(result.output).toEqual({ n: 4 });
    expect(result.iterations).toBe(2);
    expect(result.messages.some((m) => m.role === 'user' && m.origin === 'runtime' && typeof m.content === 'string' && /must be even/.test(m.content))).toBe(
      true,
    );
  });

  test('a zod refinement still failed after the retries ends the run with invalid_output, naming it', async () => {
    const schema = z.object({ n: z.number().refine((n) => n % 2 === 0, 'must be even') });
    const run = runnerFor(['{"n": 3}']).run('Even?', { output: schema, maxOutputRetries: 0 });
    const events = await eventsOf(run);
    const error = await run.result.catch((e) => e);
    expect(error.code).toBe('invalid_output');
    expect(error.message).toMatch(/must be even/);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'invalid_output' } });
  });

  test('an output that is not a schema is refused on the page with invalid_option', () => {
    const runner = runnerFor([]);
    expect(() => runner.run('x', { output: 'schema' as never })).toThrow(expect.objectContaining({ code: 'invalid_option' }));
  });
});

describe('WorkerRunnerOptions.context', () => {
  test('the budget crosses to the worker: an oversized input fails with context_overflow', async () => {
    const runner = runnerFor(['never sent'], { context: { maxTokens: 100 } });
    const error = await runner.run('w'.repeat(2000)).result.catch((e) => e);
    expect(error.code).toBe('context_overflow');
  });
});
