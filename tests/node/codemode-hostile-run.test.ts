// Code Mode in runs, attacked as a hostile model would: arguments nested past the decoder's depth,
// a program of more calls than it may make, one call id given to two programs, a program that
// tries to start another program.
import { describe, expect, test } from 'vitest';
import { Agent, ChatRunner, defineTool, type RunEvent } from '../../src/index.js';
import { eventsOf, ProgramEngine } from '../support/codemode.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echo',
  parameters: { type: 'object', properties: { value: {} } },
  readOnly: true,
  call: ({ value }: { value?: unknown }) => value ?? null,
});

async function run(replies: ConstructorParameters<typeof ProgramEngine>[0]) {
  const agent = (await Agent.make(new ProgramEngine(replies), { codeMode: true })).tool(echo);
  const started = new ChatRunner().run(agent, 'go');
  const events = await eventsOf(started);
  return { events, result: await started.result };
}

describe('Code Mode, hostile programs', () => {
  test('arguments nested 100 deep are refused invalid_arguments, catchable; the tool never ran', async () => {
    const code = "let v = 1; for (let i = 0; i < 100; i++) v = { v }; try { await tools.echo({ value: v }); return 'ran'; } catch (e) { return e.code; }";
    const { result, events } = await run([{ code }, 'ok']);
    expect(result.toolResults[0]).toMatchObject({ ok: true, output: { result: 'invalid_arguments' } });
    expect(events.some((e) => e.type === 'tool_started' && e.name === 'echo')).toBe(false);
  });

  test('past maxToolCalls (1,000) each further call rejects too_many_calls, and the run never sees it', async () => {
    const code =
      "let refused = 0; for (let i = 0; i < 1010; i++) { try { await tools.echo({ value: i }); } catch (e) { if (e.code === 'too_many_calls') refused++; } } return refused;";
    const { result, events } = await run([{ code }, 'ok']);
    expect(result.toolResults[0]).toMatchObject({ ok: true, output: { result: 10 } });
    expect(events.filter((e) => e.type === 'tool_call' && e.parentCallId !== undefined)).toHaveLength(1000);
  });

  test('two programs given one call id: each keeps calls of ids of its own, none shared', async () => {
    const code = 'return await tools.echo({ value: 1 });';
    const replies = [{ code }, { code }, 'ok'];
    const engine = new ProgramEngine(replies);
    // The model names both programs `program_1`.
    const stream = engine.stream.bind(engine);
    engine.stream = async function* (request) {
      for await (const event of stream(request)) yield event.type === 'tool_call' ? { ...event, call: { ...event.call, id: 'program_1' } } : event;
    };
    const agent = (await Agent.make(engine, { codeMode: true })).tool(echo);
    const started = new ChatRunner().run(agent, 'go');
    const events: RunEvent[] = await eventsOf(started);
    const result = await started.result;
    const [first, second] = result.toolResults.map((r) => r.id);
    expect(first).toBe('program_1');
    expect(second).not.toBe('program_1');
    const nested = events.flatMap((e) => (e.type === 'tool_call' && e.parentCallId ? [[e.parentCallId, e.call.id]] : []));
    expect(nested).toEqual([
      [first, `${first}.0`],
      [second, `${second}.0`],
    ]);
  });

  test('a program cannot start a program: run_code is not among its tools', async () => {
    const { result } = await run([{ code: "return typeof tools.run_code + ' ' + typeof tools['run_code'];" }, 'ok']);
    expect(result.toolResults[0]).toMatchObject({ ok: true, output: { result: 'undefined undefined' } });
  });
});
