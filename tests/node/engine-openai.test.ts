import { describe, expect, it, vi } from 'vitest';
import { createEngine } from '../../src/engines/create-engine.js';
import { openAICompatible } from '../../src/engines/openai/openai-compatible.js';
import type { Message } from '../../src/core/types.js';
import { callsOf, collect, request, textOf, useSseServer } from './engine-test-helpers.js';
import { chunk, DONE, sse, textStream } from './sse-server.js';

const local = useSseServer();
const { engineFor } = local;

const call = (index: number | undefined, fields: Record<string, unknown>) => (index === undefined ? fields : { index, ...fields });

describe('openAICompatible config', () => {
  it('fills the defaults and survives structured cloning', () => {
    const config = openAICompatible({ baseURL: 'http://x/v1', model: 'm', extraBody: { seed: 1 } });
    expect(config).toEqual({
      kind: 'openai-compatible',
      baseURL: 'http://x/v1',
      model: 'm',
      nativeTools: true,
      maxRetries: 2,
      timeoutMs: 60_000,
      extraBody: { seed: 1 },
    });
    expect(structuredClone(config)).toEqual(config);
  });

  it('rejects a config without a model', () => {
    expect(() => openAICompatible({ baseURL: 'http://x/v1', model: '' })).toThrow(expect.objectContaining({ code: 'invalid_engine_config' }));
  });

  it('rejects a relative baseURL where there is no location to resolve it against (Node)', () => {
    expect(() => openAICompatible({ baseURL: '/api/v1', model: 'm' })).toThrow(expect.objectContaining({ code: 'invalid_engine_config' }));
  });
});

describe('OpenAI-compatible engine: streaming', () => {
  it('streams text deltas as text events and finishes with stop', async () => {
    const engine = await engineFor(() => ({ pieces: textStream('Hel', 'lo, ', 'world') }));
    const events = await collect(engine);
    expect(events.filter((e) => e.type === 'text')).toHaveLength(3);
    expect(textOf(events)).toBe('Hello, world');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('merges interleaved tool-call deltas by index, arguments split mid-token', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ role: 'assistant', content: null, tool_calls: [call(0, { id: 'call_a', type: 'function', function: { name: 'add', arguments: '' } })] }),
        chunk({ tool_calls: [call(1, { id: 'call_b', type: 'function', function: { name: 'greet', arguments: '{"na' } })] }),
        chunk({ tool_calls: [call(0, { function: { arguments: '{"a": 1' } })] }),
        chunk({ tool_calls: [call(1, { function: { arguments: 'me": "Ada"}' } })] }),
        chunk({ tool_calls: [call(0, { function: { arguments: '2, "b": 3}' } })] }),
        chunk({}, 'tool_calls'),
        DONE,
      ],
    }));
    const events = await collect(engine);
    expect(callsOf(events)).toEqual([
      { id: 'call_a', name: 'add', arguments: { a: 12, b: 3 } },
      { id: 'call_b', name: 'greet', arguments: { name: 'Ada' } },
    ]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('accepts whole calls sent in one chunk (Mistral style), arguments as text or object', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({
          tool_calls: [
            call(0, { id: 'c1', function: { name: 'add', arguments: '{"a":1,"b":2}' } }),
            call(1, { id: 'c2', function: { name: 'add', arguments: { a: 3, b: 4 } } }),
          ],
        }),
        chunk({}, 'tool_calls'),
      ],
    }));
    expect(callsOf(await collect(engine))).toEqual([
      { id: 'c1', name: 'add', arguments: { a: 1, b: 2 } },
      { id: 'c2', name: 'add', arguments: { a: 3, b: 4 } },
    ]);
  });

  it('assembles calls that carry no index (Gemini style) and reports tool_calls despite a stop', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ tool_calls: [{ id: 'g1', type: 'function', function: { name: 'find', arguments: '{"q":' } }] }),
        chunk({ tool_calls: [{ function: { arguments: '"cats"}' } }] }),
        chunk({ tool_calls: [{ id: 'g2', type: 'function', function: { name: 'find', arguments: '{"q":"dogs"}' } }] }),
        chunk({}, 'stop'),
        DONE,
      ],
    }));
    const events = await collect(engine);
    expect(callsOf(events)).toEqual([
      { id: 'g1', name: 'find', arguments: { q: 'cats' } },
      { id: 'g2', name: 'find', arguments: { q: 'dogs' } },
    ]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('separates calls that all claim index 0 but have distinct ids (Ollama style)', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ tool_calls: [call(0, { id: 'o1', function: { name: 'write', arguments: '{"f":"a.py"}' } })] }),
        chunk({ tool_calls: [call(0, { id: 'o2', function: { name: 'write', arguments: '{"f":"b.py"}' } })] }),
        chunk({}, 'tool_calls'),
      ],
    }));
    expect(callsOf(await collect(engine)).map((c) => [c.id, c.arguments])).toEqual([
      ['o1', { f: 'a.py' }],
      ['o2', { f: 'b.py' }],
    ]);
  });

  it('fills a missing call id, reads empty arguments as {} and keeps unparsable ones raw', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ tool_calls: [call(0, { function: { name: 'now', arguments: '' } }), call(1, { id: 'x', function: { name: 'bad', arguments: '{"a":' } })] }),
        chunk({}, 'tool_calls'),
      ],
    }));
    const [first, second] = callsOf(await collect(engine));
    expect(first).toMatchObject({ name: 'now', arguments: {} });
    expect(first!.id).toMatch(/^call_/);
    expect(second).toEqual({ id: 'x', name: 'bad', arguments: '{"a":' });
  });

  it('keeps provider fields of calls and reasoning_content, and echoes both in the next request', async () => {
    const signature = { google: { thought_signature: 'sig==' } };
    const engine = await engineFor((_req, n) =>
      n === 0
        ? {
            pieces: [
              chunk({ reasoning_content: 'Think' }),
              chunk({ reasoning_content: 'ing.' }),
              chunk({ tool_calls: [call(0, { id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":1}' }, extra_content: signature })] }),
              chunk({}, 'tool_calls'),
              DONE,
            ],
          }
        : { pieces: textStream('2') },
    );
    const first = await collect(engine);
    const [toolCall] = callsOf(first);
    const finish = first.at(-1);
    expect(toolCall).toEqual({ id: 'c1', name: 'add', arguments: { a: 1 }, provider: { extra_content: signature } });
    expect(finish).toEqual({ type: 'finish', reason: 'tool_calls', provider: { reasoning_content: 'Thinking.' } });

    const messages: Message[] = [
      { role: 'user', content: 'add' },
      { role: 'assistant', content: '', toolCalls: [toolCall!], provider: finish?.type === 'finish' ? finish.provider : undefined },
      { role: 'tool', toolCallId: 'c1', name: 'add', content: '{"ok":true,"output":1}' },
    ];
    await collect(engine, request({ messages }));
    const echoed = local.server.requests[1]!.json.messages[1];
    expect(echoed.reasoning_content).toBe('Thinking.');
    expect(echoed.content).toBeNull();
    expect(echoed.tool_calls).toEqual([{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":1}' }, extra_content: signature }]);
  });

  it('keeps reasoning out of the text', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ role: 'assistant', content: null, reasoning_content: 'secret plan' }),
        chunk({ reasoning: 'more thoughts', content: null }),
        chunk({
          content: [
            { type: 'thinking', thinking: [{ type: 'text', text: 'hidden' }] },
            { type: 'text', text: 'Answer' },
          ],
        }),
        chunk({ content: '.' }, 'stop'),
        DONE,
      ],
    }));
    const events = await collect(engine);
    expect(textOf(events)).toBe('Answer.');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop', provider: { reasoning_content: 'secret plan' } });
  });

  it('reports usage once, after the calls and before finish, from a trailing usage chunk', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        ...textStream('ok').slice(0, -1),
        sse({ id: 'x', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 11, completion_tokens: 2, total_tokens: 13 } }),
        DONE,
      ],
    }));
    const events = await collect(engine);
    expect(events.filter((e) => e.type === 'usage')).toEqual([{ type: 'usage', usage: { promptTokens: 11, completionTokens: 2, totalTokens: 13 } }]);
    expect(events.map((e) => e.type).slice(-2)).toEqual(['usage', 'finish']);
  });

  it('reports the last usage once when a server puts usage in every chunk', async () => {
    const usage = (n: number) => ({ usage: { prompt_tokens: 5, completion_tokens: n, total_tokens: 5 + n } });
    const engine = await engineFor(() => ({
      pieces: [chunk({ content: 'a' }, null, usage(1)), chunk({ content: 'b' }, null, usage(2)), chunk({}, 'stop', usage(3))],
    }));
    const events = await collect(engine);
    expect(events.filter((e) => e.type === 'usage')).toEqual([{ type: 'usage', usage: { promptTokens: 5, completionTokens: 3, totalTokens: 8 } }]);
  });
});

describe('OpenAI-compatible engine: request', () => {
  it('sends the chat body: messages mapped, tools, tool_choice, stream_options, auth, headers, extraBody', async () => {
    const engine = await engineFor(() => ({ pieces: textStream('ok') }), {
      apiKey: 'sk-test',
      headers: { 'x-app': 'ambi' },
      temperature: 0.2,
      maxTokens: 64,
      extraBody: { seed: 7, temperature: 0.5 },
    });
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Add 1 and 2.' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 1, b: 2 } }] },
      { role: 'tool', toolCallId: 'c1', name: 'add', content: '{"ok":true,"output":3}' },
      { role: 'user', content: 'Your call had a format error.', origin: 'runtime' },
      { role: 'assistant', content: 'Done: 3' },
    ];
    const parameters = { type: 'object', properties: { a: { type: 'number' } } } as const;
    await collect(engine, request({ messages, tools: [{ name: 'add', description: 'Adds.', parameters }], toolChoice: { name: 'add' } }));

    const [sent] = local.server.requests;
    expect(sent!.method).toBe('POST');
    expect(sent!.url).toBe('/v1/chat/completions');
    expect(sent!.headers.authorization).toBe('Bearer sk-test');
    expect(sent!.headers['x-app']).toBe('ambi');
    expect(sent!.headers['content-type']).toBe('application/json');
    expect(sent!.json).toEqual({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.5,
      max_tokens: 64,
      seed: 7,
      tools: [{ type: 'function', function: { name: 'add', description: 'Adds.', parameters } }],
      tool_choice: { type: 'function', function: { name: 'add' } },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Add 1 and 2.' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":2}' } }] },
        { role: 'tool', tool_call_id: 'c1', name: 'add', content: '{"ok":true,"output":3}' },
        { role: 'user', content: '[runtime] Your call had a format error.' },
        { role: 'assistant', content: 'Done: 3' },
      ],
    });
  });

  it('sends a configured header instead of the default of the same name, whatever its case', async () => {
    const engine = await engineFor(() => ({ pieces: textStream('ok') }), {
      apiKey: 'sk-test',
      headers: { Authorization: 'Basic dXNlcjpwYXNz', 'Content-Type': 'application/json; charset=utf-8' },
    });
    await collect(engine);
    const [sent] = local.server.requests;
    expect(sent!.headers.authorization).toBe('Basic dXNlcjpwYXNz');
    expect(sent!.headers['content-type']).toBe('application/json; charset=utf-8');
  });

  it('sends string tool choices as they are, and raw string arguments unchanged', async () => {
    const engine = await engineFor(() => ({ pieces: textStream('ok') }));
    const messages: Message[] = [{ role: 'assistant', content: 'x', toolCalls: [{ id: 'c', name: 't', arguments: '{broken' }] }];
    const parameters = { type: 'object' } as const;
    await collect(engine, request({ messages, tools: [{ name: 't', description: '', parameters }], toolChoice: 'required' }));
    const body = local.server.requests[0]!.json;
    expect(body.tool_choice).toBe('required');
    expect(body.messages[0].tool_calls[0].function.arguments).toBe('{broken');
    expect(local.server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('omits tools and tool_choice when there are no tools, and accepts a baseURL with a trailing slash', async () => {
    await local.start(() => ({ pieces: textStream('ok') }));
    const engine = createEngine(openAICompatible({ baseURL: `${local.server.baseURL}/`, model: 'm' }));
    await collect(engine, request({ toolChoice: 'auto' }));
    expect(local.server.requests[0]!.url).toBe('/v1/chat/completions');
    expect(local.server.requests[0]!.json).not.toHaveProperty('tools');
    expect(local.server.requests[0]!.json).not.toHaveProperty('tool_choice');
  });

  it.each([
    ['/v1', '/app/index.html'],
    ['v1', '/'],
  ])("resolves a relative baseURL (%s) against the page's location, so the config posted to a worker calls the same server", async (baseURL, page) => {
    await local.start(() => ({ pieces: textStream('ok') }));
    const origin = new URL(local.server.baseURL).origin;
    vi.stubGlobal('location', { href: `${origin}${page}` });
    let config: ReturnType<typeof openAICompatible>;
    try {
      config = openAICompatible({ baseURL, model: 'm' });
    } finally {
      vi.unstubAllGlobals();
    }
    expect(config.baseURL).toBe(`${origin}/v1`);
    expect(textOf(await collect(createEngine(structuredClone(config))))).toBe('ok');
    expect(local.server.requests[0]!.url).toBe('/v1/chat/completions');
  });

  it('with nativeTools false reports it and sends no tools', async () => {
    const engine = await engineFor(() => ({ pieces: textStream('[TOOL_CALL]{"name":"t","args":{}}[/TOOL_CALL]') }), { nativeTools: false });
    const parameters = { type: 'object' } as const;
    const events = await collect(engine, request({ tools: [{ name: 't', description: '', parameters }], toolChoice: 'auto' }));
    expect(engine.nativeTools).toBe(false);
    expect(local.server.requests[0]!.json).not.toHaveProperty('tools');
    expect(local.server.requests[0]!.json).not.toHaveProperty('tool_choice');
    expect(textOf(events)).toBe('[TOOL_CALL]{"name":"t","args":{}}[/TOOL_CALL]');
  });
});
