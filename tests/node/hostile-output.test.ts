// Structured output: `run(input, { output })` against a real OpenAI-compatible test server, request bodies inspected.
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { Agent, ChatRunner, defineTool, openAICompatible } from '../../src/index.js';
import type { OpenAICompatibleOptions } from '../../src/extend/index.js';
import { rejection, useSseServer } from './engine-test-helpers.js';
import { chunk, DONE, textStream, type Handler } from './sse-server.js';

const local = useSseServer();

const weather = {
  type: 'object',
  title: 'Weather report',
  properties: { city: { type: 'string' }, celsius: { type: 'integer' } },
  required: ['city', 'celsius'],
  additionalProperties: false,
} as const;

/** A server that answers request n with `replies[n]` (a text answer, or a stream of pieces). */
function replying(...replies: Array<string | string[]>): Handler {
  return (_request, n) => {
    const reply = replies[n];
    if (reply === undefined) throw new Error(`unexpected request ${n}`);
    return { pieces: typeof reply === 'string' ? textStream(reply) : reply };
  };
}

/** A reply that calls `add` natively. */
const addCall = [
  chunk({ role: 'assistant', tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } }] }),
  chunk({}, 'tool_calls'),
  DONE,
];

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  idempotent: true,
  call: ({ a, b }) => a + b,
});

async function agentFor(handler: Handler, options: Partial<OpenAICompatibleOptions> = {}): Promise<Agent> {
  const server = await local.start(handler);
  return Agent.make(openAICompatible({ baseURL: server.baseURL, model: 'test-model', ...options }), { preamble: 'You report weather.' });
}

const systemOf = (body: any): string => body.messages[0].content;
const runtimeNotes = (body: any): string[] =>
  body.messages.filter((m: any) => m.role === 'user' && m.content.startsWith('[runtime] ')).map((m: any) => m.content);

describe('run(input, { output }) with a JSON Schema', () => {
  test('a matching answer is parsed into result.output, and the schema is taught in the system prompt', async () => {
    const agent = await agentFor(replying('{"city": "Paris", "celsius": 21}'));
    const result = await new ChatRunner().run(agent, 'Weather in Paris?', { output: weather }).result;
    expect(result.output).toEqual({ city: 'Paris', celsius: 21 });
    expect(result.iterations).toBe(1);
    const body = local.server.requests[0]!.json;
    expect(systemOf(body)).toContain('You report weather.');
    expect(systemOf(body)).toContain(JSON.stringify(weather));
    // Without structuredOutputs the server is not asked for a format.
    expect(body.response_format).toBeUndefined();
  });

  test('a whole-answer Markdown fence is read as the JSON inside it', async () => {
    const agent = await agentFor(replying('```json\n{"city": "Oslo", "celsius": -3}\n```'));
    const result = await new ChatRunner().run(agent, 'Oslo?', { output: weather }).result;
    expect(result.output).toEqual({ city: 'Oslo', celsius: -3 });
  });

  test('an answer that is not JSON is fed back as a runtime note, and the corrected answer is the output', async () => {
    const agent = await agentFor(replying('It is sunny in Rome.', '{"city": "Rome", "celsius": 25}'));
    const result = await new ChatRunner().run(agent, 'Rome?', { output: weather }).result;
    expect(result.output).toEqual({ city: 'Rome', celsius: 25 });
    expect(result.iterations).toBe(2);
    const second = local.server.requests[1]!.json;
    const [note] = runtimeNotes(second);
    expect(note).toMatch(/does not match the output schema/);
    expect(note).toMatch(/the answer is not JSON/);
    // The model reads its own wrong answer before the note.
    expect(second.messages.at(-2)).toEqual({ role: 'assistant', content: 'It is sunny in Rome.' });
  });

  test('an answer that parses but does not validate is told where it is wrong', async () => {
    const agent = await agentFor(replying('{"city": "Rome", "celsius": "warm"}', '{"city": "Rome", "celsius": 25}'));
    const result = await new ChatRunner().run(agent, 'Rome?', { output: weather }).result;
    expect(result.output).toEqual({ city: 'Rome', celsius: 25 });
    expect(runtimeNotes(local.server.requests[1]!.json)[0]).toMatch(/\/celsius must be integer/);
  });

  test('after maxOutputRetries (default 2) wrong answers, the run rejects with invalid_output and its problems', async () => {
    const agent = await agentFor(replying('no', 'still no', '{"city": 1}'));
    const error = await rejection(new ChatRunner().run(agent, 'Rome?', { output: weather }).result);
    expect(error.code).toBe('invalid_output');
    expect(error.attempts).toBe(3);
    expect(error.text).toBe('{"city": 1}');
    expect(error.problems.join('\n')).toMatch(/\/city must be string/);
    expect(local.server.requests).toHaveLength(3);
  });

  test('maxOutputRetries: 0 fails on the first wrong answer', async () => {
    const agent = await agentFor(replying('no'));
    const error = await rejection(new ChatRunner().run(agent, 'Rome?', { output: weather, maxOutputRetries: 0 }).result);
    expect(error.code).toBe('invalid_output');
    expect(local.server.requests).toHaveLength(1);
  });

  test('retries stay within maxIterations', async () => {
    const agent = await agentFor(replying('no', 'no'));
    const error = await rejection(new ChatRunner().run(agent, 'Rome?', { output: weather, maxOutputRetries: 5, maxIterations: 2 }).result);
    expect(error.code).toBe('invalid_output');
    expect(local.server.requests).toHaveLength(2);
  });

  test('calls first, then the typed answer: the tool result reaches the model before it answers in JSON', async () => {
    const agent = (await agentFor(replying(addCall, '{"city": "Sum", "celsius": 5}'))).tool(add);
    const result = await new ChatRunner().run(agent, 'Add 2 and 3', { output: weather }).result;
    expect(result.toolResults.map((r) => r.ok && r.output)).toEqual([5]);
    expect(result.output).toEqual({ city: 'Sum', celsius: 5 });
    expect(local.server.requests[1]!.json.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
  });

  test('an output that is not a schema, or a negative maxOutputRetries, is refused with invalid_option before any request', async () => {
    const agent = await agentFor(replying());
    const runner = new ChatRunner();
    expect(() => runner.run(agent, 'x', { output: 5 as never })).toThrow(expect.objectContaining({ code: 'invalid_option', option: 'output' }));
    // A schema object that does not compile is known as the run starts: its result rejects, and nothing is sent.
    await expect(runner.run(agent, 'x', { output: { type: 'no-such-type' } as never }).result).rejects.toMatchObject({
      code: 'invalid_option',
      option: 'output',
    });
    expect(() => runner.run(agent, 'x', { output: weather, maxOutputRetries: -1 })).toThrow(
      expect.objectContaining({ code: 'invalid_option', option: 'maxOutputRetries' }),
    );
    expect(local.server.requests).toHaveLength(0);
  });
});

describe('run(input, { output }) with a Standard Schema (zod)', () => {
  const event = z.object({
    title: z.string().min(1),
    when: z.string().transform((text) => new Date(text)),
    seats: z.number().int().default(1),
  });

  test('transforms and defaults apply: result.output is the parsed value, typed as the schema says', async () => {
    const agent = await agentFor(replying('{"title": "Launch", "when": "2026-01-02T03:04:05Z"}'));
    const result = await new ChatRunner().run(agent, 'Plan it', { output: event }).result;
    const output: { title: string; when: Date; seats: number } | undefined = result.output;
    expect(output?.when).toBeInstanceOf(Date);
    expect(output?.when.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(output?.seats).toBe(1);
    // The model is shown the schema's input side, as JSON Schema.
    expect(systemOf(local.server.requests[0]!.json)).toContain('"when":{"type":"string"}');
  });

  test("the library's own messages are fed back, and a corrected answer passes", async () => {
    const agent = await agentFor(replying('{"title": "", "when": "2026-01-02"}', '{"title": "Launch", "when": "2026-01-02"}'));
    const result = await new ChatRunner().run(agent, 'Plan it', { output: event }).result;
    expect(result.output?.title).toBe('Launch');
    expect(runtimeNotes(local.server.requests[1]!.json)[0]).toMatch(/\/title .*(>=|at least) ?1/i);
  });
});

describe('openAICompatible({ structuredOutputs: true }): response_format on answering turns', () => {
  test('sends the schema as json_schema, named from its title', async () => {
    const agent = await agentFor(replying('{"city": "Paris", "celsius": 21}'), { structuredOutputs: true });
    await new ChatRunner().run(agent, 'Paris?', { output: weather }).result;
    expect(local.server.requests[0]!.json.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'Weather_report', schema: weather } });
  });

  test('`{ strict: true }` is passed on; a run without output sends no format', async () => {
    const agent = await agentFor(replying('{"city": "Paris", "celsius": 21}', 'plain'), { structuredOutputs: { strict: true } });
    const runner = new ChatRunner();
    await runner.run(agent, 'Paris?', { output: weather }).result;
    await runner.run(agent, 'Hello').result;
    expect(local.server.requests[0]!.json.response_format.json_schema.strict).toBe(true);
    expect(local.server.requests[1]!.json.response_format).toBeUndefined();
  });

  test('with native tools, every turn that may answer carries it, alongside the tools', async () => {
    const agent = (await agentFor(replying(addCall, '{"city": "Sum", "celsius": 5}'), { structuredOutputs: true })).tool(add);
    await new ChatRunner().run(agent, 'Add', { output: weather }).result;
    for (const request of local.server.requests) {
      expect(request.json.tools).toHaveLength(1);
      expect(request.json.response_format.type).toBe('json_schema');
    }
  });

  test('a turn that must call a tool (toolChoice required) is not an answering turn; the turn after its results is', async () => {
    const agent = (await agentFor(replying(addCall, '{"city": "Sum", "celsius": 5}'), { structuredOutputs: true })).tool(add);
    await new ChatRunner().run(agent, 'Add', { output: weather, toolChoice: 'required' }).result;
    const [first, second] = local.server.requests.map((r) => r.json);
    expect(first.tool_choice).toBe('required');
    expect(first.response_format).toBeUndefined();
    expect(second.tool_choice).toBe('auto');
    expect(second.response_format.type).toBe('json_schema');
  });

  test('with calls as text (nativeTools: false) and tools, no format is sent (it would forbid the call tags), unless toolChoice is none', async () => {
    const agent = (
      await agentFor(replying('{"city": "A", "celsius": 1}', '{"city": "B", "celsius": 2}'), { structuredOutputs: true, nativeTools: false })
    ).tool(add);
    const runner = new ChatRunner();
    await runner.run(agent, 'x', { output: weather }).result;
    await runner.run(agent, 'x', { output: weather, toolChoice: 'none' }).result;
    expect(local.server.requests[0]!.json.response_format).toBeUndefined();
    expect(local.server.requests[1]!.json.response_format.type).toBe('json_schema');
  });

  test('a structuredOutputs that is neither a boolean nor { strict } is refused', () => {
    expect(() => openAICompatible({ baseURL: 'http://127.0.0.1:1/v1', model: 'm', structuredOutputs: 'yes' as never })).toThrow(
      expect.objectContaining({ code: 'invalid_engine_config' }),
    );
  });
});
