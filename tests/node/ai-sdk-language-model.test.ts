// languageModelEngine on the AI SDK's own mock models (`ai/test`): every stream part type of the
// language model specification, the call options it sends, and v2 / v3 / v4 models alike.
import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, isAmbiError, type RunEvent } from '../../src/index.js';
import { languageModelEngine } from '../../src/ai-sdk/index.js';
import { callPart, finishPart, mockV3, mockV4, partStream, textParts, usageV4 } from '../support/ai-sdk-models.js';
import { collect } from '../support/run-events.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  idempotent: true,
  call: ({ a, b }) => a + b,
});

async function runOn(model: Parameters<typeof languageModelEngine>[0], input = 'Add 2 and 3', options: Parameters<ChatRunner['run']>[2] = {}) {
  const agent = (await Agent.make(languageModelEngine(model), { preamble: 'Be brief.' })).tool(add);
  const run = new ChatRunner().run(agent, input, options);
  const events = await collect(run);
  return { events, result: await run.result.catch((error: unknown) => error) };
}

const eventsOf = <T extends RunEvent['type']>(events: RunEvent[], type: T) =>
  events.filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);

describe('languageModelEngine: the stream parts of a reply', () => {
  it('streams text deltas as they come, and ends on the finish', async () => {
    const model = mockV4([[{ type: 'stream-start', warnings: [] }, ...textParts('t1', 'Hel', 'lo ', 'there.'), finishPart('stop')]]);
    const { events, result } = await runOn(model, 'Hi');
    expect(
      eventsOf(events, 'text_delta')
        .map((event) => event.text)
        .join(''),
    ).toBe('Hello there.');
    expect(result).toMatchObject({ text: 'Hello there.', iterations: 1 });
    expect(eventsOf(events, 'iteration_finished')[0]?.finishReason).toBe('stop');
  });

  it('runs a tool call whose input is JSON text (its input deltas ignored), feeds the result back, and answers', async () => {
    const model = mockV4([
      [
        { type: 'tool-input-start', id: 'c1', toolName: 'add' },
        { type: 'tool-input-delta', id: 'c1', delta: '{"a":2,' },
        { type: 'tool-input-delta', id: 'c1', delta: '"b":3}' },
        { type: 'tool-input-end', id: 'c1' },
        callPart('c1', 'add', '{"a":2,"b":3}'),
        finishPart('tool-calls'),
      ],
      [...textParts('t', 'It is 5.'), finishPart('stop')],
    ]);
    const { events, result } = await runOn(model);
    expect(result).toMatchObject({ text: 'It is 5.', toolResults: [{ name: 'add', ok: true, output: 5 }] });
    expect(eventsOf(events, 'tool_call')).toHaveLength(1);
    expect(eventsOf(events, 'iteration_finished').map((event) => event.finishReason)).toEqual(['tool_calls', 'stop']);
    // The second request: the call as a tool-call part (input as the object), its result as a tool message.
    const second = model.doStreamCalls[1]!.prompt;
    expect(second.at(-2)).toMatchObject({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: { a: 2, b: 3 } }] });
    expect(second.at(-1)).toMatchObject({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'add', output: { type: 'text' } }] });
    expect(JSON.parse((second.at(-1)!.content[0] as { output: { value: string } }).output.value)).toEqual({ ok: true, output: 5 });
  });

  it('reads an empty input as no arguments, and input that is not JSON as invalid arguments the model is told of', async () => {
    const noArgs = defineTool({ name: 'now', description: 'x', parameters: { type: 'object' }, idempotent: true, call: () => 'noon' });
    const model = mockV4([
      [callPart('c1', 'now', ''), callPart('c2', 'add', '{"a":2,'), finishPart('tool-calls')],
      [...textParts('t', 'Done.'), finishPart('stop')],
    ]);
    const agent = (await Agent.make(languageModelEngine(model))).tool(add).tool(noArgs);
    const { toolResults } = await new ChatRunner().run(agent, 'go').result;
    expect(toolResults).toMatchObject([
      { name: 'now', ok: true, output: 'noon' },
      { name: 'add', ok: false, error: { code: 'invalid_arguments' } },
    ]);
  });

  it('keeps reasoning out of the answer and sends it back, signed, before the reply it led to', async () => {
    const model = mockV4([
      [
        { type: 'reasoning-start', id: 'r1' },
        { type: 'reasoning-delta', id: 'r1', delta: 'Two plus three.' },
        { type: 'reasoning-end', id: 'r1', providerMetadata: { anthropic: { signature: 'sig-1' } } },
        callPart('c1', 'add', '{"a":2,"b":3}', { providerMetadata: { google: { thoughtSignature: 'ts-1' } } }),
        finishPart('tool-calls', usageV4(20, 12, { reasoning: 7 })),
      ],
      [...textParts('t', '5.'), finishPart('stop')],
    ]);
    const { result } = await runOn(model);
    expect(result).toMatchObject({ text: '5.' });
    const reply = model.doStreamCalls[1]!.prompt.at(-2)!;
    expect(reply.content).toEqual([
      { type: 'reasoning', text: 'Two plus three.', providerOptions: { anthropic: { signature: 'sig-1' } } },
      { type: 'tool-call', toolCallId: 'c1', toolName: 'add', input: { a: 2, b: 3 }, providerOptions: { google: { thoughtSignature: 'ts-1' } } },
    ]);
  });

  it('does not run a call the provider runs itself (its result, approval request, files, sources, metadata and raw chunks pass by), and says so once', async () => {
    const model = mockV4([
      [
        { type: 'response-metadata', id: 'resp-1', modelId: 'mock-4', timestamp: new Date(0) },
        { type: 'raw', rawValue: { anything: true } },
        callPart('s1', 'web_search', '{"q":"x"}', { providerExecuted: true }),
        { type: 'tool-result', toolCallId: 's1', toolName: 'web_search', result: { hits: 1 }, providerExecuted: true },
        { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 's1' },
        { type: 'source', sourceType: 'url', id: 'src1', url: 'https://example.com/', title: 'Example' },
        { type: 'file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'reasoning-file', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'custom', kind: 'mock.thing' },
        ...textParts('t', 'Found it.'),
        finishPart('stop'),
      ],
    ]);
    const { events, result } = await runOn(model, 'Search');
    expect(result).toMatchObject({ text: 'Found it.', toolResults: [] });
    expect(eventsOf(events, 'tool_call')).toEqual([]);
    expect(eventsOf(events, 'warning').map((event) => event.code)).toEqual(['provider_tool']);
  });

  it("reports the provider's warnings as warning events", async () => {
    const warnings = [
      { type: 'unsupported', feature: 'topK', details: 'ignored by this model' },
      { type: 'other', message: 'a note' },
    ];
    const model = mockV4([[{ type: 'stream-start', warnings }, ...textParts('t', 'ok'), finishPart('stop')]]);
    const { events } = await runOn(model, 'Hi');
    expect(eventsOf(events, 'warning').map((event) => [event.code, event.message])).toEqual([
      ['provider_warning', 'mock.chat: unsupported topK: ignored by this model'],
      ['provider_warning', 'mock.chat: other a note'],
    ]);
  });

  it('keeps cache and reasoning tokens in each usage event and sums them in the run', async () => {
    const model = mockV4([
      [callPart('c1', 'add', '{"a":1,"b":1}'), finishPart('tool-calls', usageV4(100, 20, { cacheRead: 60, cacheWrite: 30, reasoning: 8 }))],
      [...textParts('t', '2'), finishPart('stop', usageV4(130, 4, { cacheRead: 90 }))],
    ]);
    const { events, result } = await runOn(model);
    expect(eventsOf(events, 'usage').map((event) => event.usage)).toEqual([
      { promptTokens: 100, completionTokens: 20, totalTokens: 120, cacheReadTokens: 60, cacheWriteTokens: 30, reasoningTokens: 8 },
      { promptTokens: 130, completionTokens: 4, totalTokens: 134, cacheReadTokens: 90 },
    ]);
    expect((result as { usage: unknown }).usage).toEqual({
      promptTokens: 230,
      completionTokens: 24,
      totalTokens: 254,
      requests: 2,
      cacheReadTokens: 150,
      cacheWriteTokens: 30,
      reasoningTokens: 8,
    });
  });

  it('names each finish reason as the runner does (tool-calls, content-filter, length, other)', async () => {
    for (const [unified, ours] of [
      ['content-filter', 'content_filter'],
      ['length', 'length'],
      ['other', 'other'],
      ['interrupted', 'interrupted'],
    ]) {
      const { events } = await runOn(mockV4([[...textParts('t', 'x'), finishPart(unified!)]]), 'Hi');
      expect(eventsOf(events, 'iteration_finished')[0]?.finishReason).toBe(ours);
    }
  });

  it("fails the run with stream_error on an error part, the provider's words kept and a key in them taken out", async () => {
    const error = { type: 'overloaded_error', message: 'Overloaded; your key sk-ant-api03-abcdefghijklmnop is fine' };
    const { result } = await runOn(mockV4([[...textParts('t', 'Hal'), { type: 'error', error }]]), 'Hi');
    expect(isAmbiError(result, 'stream_error')).toBe(true);
    expect((result as Error).message).toContain('overloaded_error: Overloaded');
    expect((result as Error).message).not.toContain('abcdefghijklmnop');
  });

  it('fails with stream_cut when the stream ends without a finish', async () => {
    const { result } = await runOn(mockV4([textParts('t', 'Half an ans')]), 'Hi');
    expect(isAmbiError(result, 'stream_cut')).toBe(true);
  });

  it('passes over parts that are not objects, and text deltas that are not text', async () => {
    const model = mockV4([[null, 42, 'text', { type: 'text-delta', id: 't', delta: 7 }, ...textParts('t', 'ok'), finishPart('stop')]]);
    expect((await runOn(model, 'Hi')).result).toMatchObject({ text: 'ok' });
  });
});

describe('languageModelEngine: what doStream is called with', () => {
  it('sends the system prompt, the tools as function tools, the tool choice, and the call settings', async () => {
    const model = mockV4([[...textParts('t', 'ok'), finishPart('stop')]]);
    const engine = languageModelEngine(model, {
      temperature: 0.2,
      maxOutputTokens: 300,
      headers: { 'x-app': 'notes' },
      providerOptions: { mock: { level: 1 } },
    });
    const agent = (await Agent.make(engine, { preamble: 'Be brief.' })).tool(add);
    await new ChatRunner().run(agent, 'Add', { toolChoice: { name: 'add' } }).result;
    const options = model.doStreamCalls[0]!;
    expect(options.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Add' }] },
    ]);
    expect(options.tools).toEqual([{ type: 'function', name: 'add', description: 'Add two numbers', inputSchema: add.parameters }]);
    expect(options.toolChoice).toEqual({ type: 'tool', toolName: 'add' });
    expect(options).toMatchObject({ temperature: 0.2, maxOutputTokens: 300, headers: { 'x-app': 'notes' }, providerOptions: { mock: { level: 1 } } });
    expect(options.responseFormat).toBeUndefined();
  });

  it('sends a typed answer schema as responseFormat json, and reads the answer as the output', async () => {
    const schema = { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'], additionalProperties: false, title: 'Sum' } as const;
    const model = mockV4([[...textParts('t', '{"sum":', '5}'), finishPart('stop')]]);
    const { result } = await runOn(model, 'Add', { output: schema });
    expect((result as { output: unknown }).output).toEqual({ sum: 5 });
    expect(model.doStreamCalls[0]!.responseFormat).toEqual({ type: 'json', schema, name: 'Sum' });
  });

  it("passes the run's abort into doStream's abortSignal and cancels the stream", async () => {
    const held = partStream(textParts('t', 'Thinking'), true);
    let signal: AbortSignal | undefined;
    const model = mockV4([]);
    model.doStream = async (options) => {
      signal = options.abortSignal;
      return { stream: held.stream };
    };
    const agent = await Agent.make(languageModelEngine(model));
    const run = new ChatRunner().run(agent, 'Hi');
    for await (const event of run.events) if (event.type === 'text_delta') run.abort('stop');
    await expect(run.result).rejects.toMatchObject({ code: 'aborted' });
    expect(signal?.aborted).toBe(true);
    await expect(held.cancelled).resolves.toBeDefined();
  });

  it('groups consecutive tool results in one tool message, and marks runtime notes', async () => {
    const model = mockV4([
      [callPart('c1', 'add', '{"a":1,"b":1}'), callPart('c2', 'add', '{"a":"x"}'), finishPart('tool-calls')],
      [...textParts('t', 'ok'), finishPart('stop')],
    ]);
    await runOn(model);
    const prompt = model.doStreamCalls[1]!.prompt;
    expect(prompt.at(-1)).toMatchObject({ role: 'tool', content: [{ toolCallId: 'c1' }, { toolCallId: 'c2' }] });
  });
});

describe('languageModelEngine: failures', () => {
  const apiError = (statusCode: number | undefined, message: string, more: Partial<ConstructorParameters<typeof APICallError>[0]> = {}) =>
    new APICallError({
      message,
      url: 'https://api.example.com/v1/messages?key=secret-in-url',
      requestBodyValues: { prompt: 'the whole prompt' },
      statusCode,
      ...more,
    });

  it("turns an APICallError with a status into http_error with the status, the provider's words and no key", async () => {
    const model = mockV4([]);
    model.doStream = async () => {
      throw apiError(401, 'Incorrect API key provided: sk-proj-abcdefghijklmnop1234.', { isRetryable: false });
    };
    const { result } = await runOn(model, 'Hi');
    expect(isAmbiError(result, 'http_error')).toBe(true);
    expect(result).toMatchObject({ status: 401, name: 'EngineHttpError' });
    expect((result as Error).message).toContain('mock.chat answered HTTP 401: Incorrect API key provided');
    expect((result as Error).message).not.toMatch(/abcdefghijklmnop|secret-in-url/);
    expect((result as Error).cause).toBeUndefined();
  });

  it('tries a retryable 429 again after its Retry-After, before any output, and goes on', async () => {
    let calls = 0;
    const model = mockV4([]);
    model.doStream = async () => {
      calls++;
      if (calls === 1) throw apiError(429, 'Rate limited', { isRetryable: true, responseHeaders: { 'retry-after-ms': '20' } });
      return { stream: partStream([...textParts('t', 'ok'), finishPart('stop')]).stream };
    };
    expect((await runOn(model, 'Hi')).result).toMatchObject({ text: 'ok' });
    expect(calls).toBe(2);
  });

  it('gives up after maxRetries, with the last status', async () => {
    let calls = 0;
    const model = mockV4([]);
    model.doStream = async () => {
      calls++;
      throw apiError(503, 'Overloaded', { isRetryable: true, responseHeaders: { 'retry-after': '0' } });
    };
    const agent = await Agent.make(languageModelEngine(model, { maxRetries: 1 }));
    await expect(new ChatRunner().run(agent, 'Hi').result).rejects.toMatchObject({ code: 'http_error', status: 503 });
    expect(calls).toBe(2);
  });

  it('turns an APICallError without a status (no answer at all) into network_error, not retried', async () => {
    let calls = 0;
    const model = mockV4([]);
    model.doStream = async () => {
      calls++;
      throw apiError(undefined, 'Cannot connect to API: connect ECONNREFUSED 127.0.0.1:9', { isRetryable: true });
    };
    const { result } = await runOn(model, 'Hi');
    expect(isAmbiError(result, 'network_error')).toBe(true);
    expect(calls).toBe(1);
  });

  it('refuses what is not a v2, v3 or v4 model object, coded', () => {
    expect(() => languageModelEngine('claude-sonnet-4-5' as never)).toThrow(expect.objectContaining({ code: 'invalid_engine_config' }));
    expect(() => languageModelEngine({ specificationVersion: 'v1', provider: 'old', modelId: 'm', doStream: async () => ({}) } as never)).toThrow(
      /v2, v3 or v4; this model implements v1/,
    );
    expect(() => languageModelEngine({} as never)).toThrow(expect.objectContaining({ code: 'invalid_engine_config' }));
  });
});

describe('languageModelEngine: specification versions', () => {
  it('drives a v3 model (the AI SDK 6 line)', async () => {
    const model = mockV3([
      [callPart('c1', 'add', '{"a":4,"b":4}'), finishPart('tool-calls', usageV4(9, 3, { cacheRead: 2 }))],
      [...textParts('t', '8'), finishPart('stop')],
    ]);
    const { result } = await runOn(model);
    expect(result).toMatchObject({ text: '8', toolResults: [{ output: 8 }], usage: { cacheReadTokens: 2 } });
  });

  it('drives a v2 model: flat usage counts and a finish reason named by itself', async () => {
    // No installed package implements v2 any more: a model object as the v2 specification shapes it.
    let next = 0;
    const replies = [
      [
        callPart('c1', 'add', '{"a":1,"b":2}'),
        { type: 'finish', finishReason: 'tool-calls', usage: { inputTokens: 11, outputTokens: 6, totalTokens: 17, cachedInputTokens: 4, reasoningTokens: 2 } },
      ],
      [...textParts('t', '3'), { type: 'finish', finishReason: 'stop', usage: { inputTokens: 20, outputTokens: 1, totalTokens: 21 } }],
    ];
    const model = {
      specificationVersion: 'v2' as const,
      provider: 'v2.chat',
      modelId: 'old',
      doStream: async () => ({ stream: partStream(replies[next++]!).stream }),
    };
    const { events, result } = await runOn(model);
    expect(result).toMatchObject({ text: '3', toolResults: [{ output: 3 }] });
    expect(eventsOf(events, 'usage')[0]?.usage).toEqual({ promptTokens: 11, completionTokens: 6, totalTokens: 17, cacheReadTokens: 4, reasoningTokens: 2 });
    expect(eventsOf(events, 'iteration_finished').map((event) => event.finishReason)).toEqual(['tool_calls', 'stop']);
  });
});

describe('languageModelEngine: a hostile model', () => {
  it('gives two calls with one id two ids, and runs both', async () => {
    const model = mockV4([
      [callPart('same', 'add', '{"a":1,"b":1}'), callPart('same', 'add', '{"a":2,"b":2}'), finishPart('tool-calls')],
      [...textParts('t', 'ok'), finishPart('stop')],
    ]);
    const { result } = await runOn(model);
    const results = (result as { toolResults: Array<{ id: string; output: unknown }> }).toolResults;
    expect(results.map((r) => r.output)).toEqual([2, 4]);
    expect(new Set(results.map((r) => r.id)).size).toBe(2);
  });

  it('keeps provider fields named __proto__ as data, polluting nothing, and calls to a tool named __proto__ are unknown', async () => {
    const metadata = JSON.parse('{"__proto__":{"polluted":true},"mock":{"id":"x"}}');
    const model = mockV4([
      [callPart('c1', '__proto__', '{}', { providerMetadata: metadata }), finishPart('tool-calls')],
      [...textParts('t', 'ok'), finishPart('stop')],
    ]);
    const { result } = await runOn(model);
    expect(result).toMatchObject({ toolResults: [{ ok: false, error: { code: 'unknown_tool' } }] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const call = model.doStreamCalls[1]!.prompt.at(-2)!.content[0] as { providerOptions: Record<string, unknown> };
    expect(Object.getPrototypeOf(call.providerOptions)).toBe(Object.prototype);
    expect(Object.hasOwn(call.providerOptions, '__proto__')).toBe(true);
    expect(call.providerOptions.mock).toEqual({ id: 'x' });
  });

  it('estimates usage the provider reports as nonsense, and says so', async () => {
    const usage = { inputTokens: { total: -5 }, outputTokens: { total: Number.NaN } };
    const { events } = await runOn(mockV4([[...textParts('t', 'ok'), { type: 'finish', finishReason: { unified: 'stop' }, usage }]]), 'Hi');
    expect(eventsOf(events, 'usage')[0]?.usage.estimated).toBe(true);
    expect(eventsOf(events, 'warning').map((event) => event.code)).toEqual(['invalid_usage']);
  });
});
