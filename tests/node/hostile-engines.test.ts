import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/engines/types.js';
import { Agent, ChatRunner, defineTool, openAICompatible } from '../../src/index.js';
import { callsOf, collect, rejection, request, textOf, useSseServer } from './engine-test-helpers.js';
import { chunk, DONE, sse } from './sse-server.js';

const local = useSseServer();
const { engineFor } = local;

describe('native tool calls without an index', () => {
  it('keeps two calls that share an id apart: each id-and-name delta starts a call', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ tool_calls: [{ id: 'same', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Berlin"}' } }] }),
        chunk({ tool_calls: [{ id: 'same', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] }),
        chunk({}, 'tool_calls'),
        DONE,
      ],
    }));
    expect(callsOf(await collect(engine))).toEqual([
      { id: 'same', name: 'get_weather', arguments: { city: 'Berlin' } },
      { id: 'same', name: 'get_weather', arguments: { city: 'Paris' } },
    ]);
  });

  it('keeps them apart when their arguments stream in later pieces that carry the id alone', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ tool_calls: [{ id: 'dup', function: { name: 'a', arguments: '{"n":' } }] }),
        chunk({ tool_calls: [{ id: 'dup', function: { arguments: '1}' } }] }),
        chunk({ tool_calls: [{ id: 'dup', function: { name: 'b', arguments: '' } }] }),
        chunk({ tool_calls: [{ id: 'dup', function: { arguments: '{"n":2}' } }] }),
        chunk({}, 'tool_calls'),
      ],
    }));
    expect(callsOf(await collect(engine))).toEqual([
      { id: 'dup', name: 'a', arguments: { n: 1 } },
      { id: 'dup', name: 'b', arguments: { n: 2 } },
    ]);
  });

  it('still joins a name that arrives after the id to the call the id opened', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ tool_calls: [{ id: 'late', function: { arguments: '' } }] }),
        chunk({ tool_calls: [{ id: 'late', function: { name: 'now', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
      ],
    }));
    expect(callsOf(await collect(engine))).toEqual([{ id: 'late', name: 'now', arguments: {} }]);
  });
});

/** OpenAI's last chunk under `stream_options.include_usage`: no choices, only usage. */
const usageChunk = sse({
  id: 'chatcmpl-test',
  object: 'chat.completion.chunk',
  choices: [],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
});
const usage = { type: 'usage', usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7 } };
const answer = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hello' }), chunk({}, 'stop')];

describe('a server that keeps the connection open after the finish', () => {
  it('returns the answer when nothing follows the finish (no [DONE], no usage, no timeout set)', async () => {
    const engine = await engineFor(() => ({ pieces: answer, then: 'hold' }));
    const events = await collect(engine);
    expect(textOf(events)).toBe('Hello');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
    await local.server.clientClosed(0);
  });

  it('returns the answer rather than a timeout when timeoutMs runs out after the finish', async () => {
    // Under the 1 s grace after a finish, with room for a loaded machine to deliver the answer first.
    const engine = await engineFor(() => ({ pieces: answer, then: 'hold' }), { timeoutMs: 400 });
    const events = await collect(engine);
    expect(textOf(events)).toBe('Hello');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('keeps the usage that comes in a chunk after the finish, then stops without waiting for [DONE]', async () => {
    const engine = await engineFor(() => ({ pieces: [...answer, { text: usageChunk, delayMs: 100 }], then: 'hold' }));
    const events = await collect(engine);
    expect(events.slice(-2)).toEqual([usage, { type: 'finish', reason: 'stop' }]);
    await local.server.clientClosed(0);
  });

  it('returns tool calls whose finish arrived, the connection held open', async () => {
    const engine = await engineFor(
      () => ({
        pieces: [chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'now', arguments: '{}' } }] }), chunk({}, 'tool_calls'), usageChunk],
        then: 'hold',
      }),
      { timeoutMs: 5_000 },
    );
    const events = await collect(engine);
    expect(callsOf(events)).toEqual([{ id: 'c1', name: 'now', arguments: {} }]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('returns the answer when the connection breaks after the finish', async () => {
    const engine = await engineFor(() => ({ pieces: answer, then: 'cut' }));
    expect((await collect(engine)).at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('ignores a half-written event after the finish', async () => {
    const engine = await engineFor(() => ({ pieces: [...answer, 'data: {"choices":[],"usa'] }));
    expect((await collect(engine)).at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('still rejects with aborted when the caller aborts while the server holds on after the finish', async () => {
    const engine = await engineFor(() => ({ pieces: answer, then: 'hold' }));
    const controller = new AbortController();
    const seen: EngineEvent[] = [];
    const error = await rejection(
      (async () => {
        for await (const event of engine.stream(request({ signal: controller.signal }))) {
          seen.push(event);
          if (event.type === 'text') controller.abort('stop');
        }
      })(),
    );
    expect(error.code).toBe('aborted');
    await local.server.clientClosed(0);
  });

  it('still rejects with stream_error when the server reports an error after the finish', async () => {
    const engine = await engineFor(() => ({ pieces: [...answer, 'event: error\ndata: {"error":{"message":"billing failed"}}\n\n'], then: 'hold' }));
    const error = await rejection(collect(engine));
    expect(error.code).toBe('stream_error');
    expect(error.message).toContain('billing failed');
  });
});

/** A whole chat completion, as a server that ignores `stream: true` sends it. */
const completion = JSON.stringify({
  id: 'chatcmpl-json',
  object: 'chat.completion',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Slow but whole' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
});
const json = { 'content-type': 'application/json' };

describe('a JSON body (a server that ignores stream: true)', () => {
  it('is not timed out while it is still arriving, each piece inside timeoutMs', async () => {
    // The whole body takes longer than timeoutMs; each piece comes well inside it.
    const pieces = completion.match(/[\s\S]{1,20}/g)!.map((text) => ({ text, delayMs: 150 }));
    expect(pieces.length * 150).toBeGreaterThan(1_000);
    const engine = await engineFor(() => ({ headers: json, pieces }), { timeoutMs: 1_000, maxRetries: 0 });
    const events = await collect(engine);
    expect(textOf(events)).toBe('Slow but whole');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop' });
  });

  it('still times out once it stops arriving for timeoutMs', async () => {
    const engine = await engineFor(() => ({ headers: json, pieces: [completion.slice(0, 30)], then: 'hold' }), { timeoutMs: 150, maxRetries: 0 });
    expect((await rejection(collect(engine))).code).toBe('timeout');
    await local.server.clientClosed(0);
  });

  it('returns a whole completion whose connection is then held open past timeoutMs', async () => {
    const engine = await engineFor(() => ({ headers: json, pieces: [completion], then: 'hold' }), { timeoutMs: 1_000, maxRetries: 0 });
    expect(textOf(await collect(engine))).toBe('Slow but whole');
  });

  it('returns a whole completion whose connection is then held open', async () => {
    const engine = await engineFor(() => ({ headers: json, pieces: [completion], then: 'hold' }));
    expect(textOf(await collect(engine))).toBe('Slow but whole');
    await local.server.clientClosed(0);
  });
});

// 100 000 levels of nesting take a while to parse and to check: a budget for a loaded machine.
describe('native tool-call arguments nested too deep to write back', { timeout: 30_000 }, () => {
  const deep = `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  const deepCall = () => ({
    pieces: [chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'echo', arguments: deep } }] }), chunk({}, 'tool_calls'), DONE],
  });

  it('keeps them as the server sent them, as text', async () => {
    const engine = await engineFor(deepCall);
    expect(callsOf(await collect(engine))).toEqual([{ id: 'c1', name: 'echo', arguments: deep }]);
  });

  it('lets the run go on: the arguments go back to the server as they came', async () => {
    const server = await local.start((_req, n) => (n === 0 ? deepCall() : { pieces: [chunk({ content: 'ok' }, 'stop'), DONE] }));
    const echo = defineTool({ name: 'echo', description: 'Echo.', parameters: { type: 'object', properties: {} }, idempotent: true, call: async () => 'hi' });
    const agent = (await Agent.make(openAICompatible({ baseURL: server.baseURL, model: 'm' }))).tool(echo);
    const result = await new ChatRunner().run(agent, 'hi').result;
    expect(result.text).toBe('ok');
    // Whether the tool runs is the ToolManager's call (it refuses arguments nested that deep); the run itself goes on.
    expect(result.toolResults.map((r) => r.id)).toEqual(['c1']);
    const assistant = server.requests[1]!.json.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(assistant.tool_calls[0].function.arguments).toBe(deep);
  });
});

describe('many tool-call pieces without index or id', { timeout: 30_000 }, () => {
  it('merges 20 000 pieces that each repeat the name with work linear in the stream (JSON parsed once per event, not once per piece over the whole call)', async () => {
    const pieces = 20_000;
    const body = [
      chunk({ tool_calls: [{ function: { name: 'write', arguments: '{"text":"' } }] }),
      ...Array.from({ length: pieces }, () => chunk({ tool_calls: [{ function: { name: 'write', arguments: 'abcdefghij' } }] })),
      chunk({ tool_calls: [{ function: { name: 'write', arguments: '"}' } }] }),
      chunk({}, 'tool_calls'),
      DONE,
    ].join('');
    const engine = await engineFor(() => ({ pieces: [body] }));
    // A counting JSON.parse, not a spy: a spy would keep every argument it was called with.
    const parse = JSON.parse;
    let parsedChars = 0;
    JSON.parse = (text: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      parsedChars += String(text).length;
      return parse(text, reviver);
    };
    let calls: ReturnType<typeof callsOf>;
    try {
      calls = callsOf(await collect(engine));
    } finally {
      JSON.parse = parse;
    }
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ name: 'write', arguments: { text: 'abcdefghij'.repeat(pieces) } });
    expect(parsedChars).toBeLessThan(3 * body.length);
  });

  it('still starts a new call when a piece names the tool again after the arguments are whole', async () => {
    const engine = await engineFor(() => ({
      pieces: [
        chunk({ tool_calls: [{ function: { name: 'find', arguments: '{"q":' } }] }),
        chunk({ tool_calls: [{ function: { name: 'find', arguments: '"cats"} ' } }] }),
        chunk({ tool_calls: [{ function: { name: 'find', arguments: '{"q":"dogs"}' } }] }),
        chunk({ tool_calls: [{ function: { name: 'find', arguments: '"x"}' } }] }),
        chunk({}, 'tool_calls'),
      ],
    }));
    expect(callsOf(await collect(engine)).map((c) => c.arguments)).toEqual([{ q: 'cats' }, { q: 'dogs' }, '"x"}']);
  });
});

describe('many reasoning_details pieces', () => {
  it('joins thousands of interleaved details by index and type, in their first order', async () => {
    const details = 5_000;
    const piece = (i: number, text: string) => chunk({ reasoning_details: [{ type: 'reasoning.text', index: i, text }] });
    const body = [
      ...Array.from({ length: details }, (_, i) => piece(i, `a${i}`)),
      ...Array.from({ length: details }, (_, i) => piece(i, `b${i}`)),
      chunk({ reasoning_details: [{ type: 'reasoning.summary', index: 0, summary: 's' }] }),
      chunk({ content: 'ok' }, 'stop'),
      DONE,
    ].join('');
    const engine = await engineFor(() => ({ pieces: [body] }));
    const finish = (await collect(engine)).at(-1) as Extract<EngineEvent, { type: 'finish' }>;
    const joined = finish.provider!.reasoning_details as Array<Record<string, unknown>>;
    expect(joined).toHaveLength(details + 1);
    expect(joined[0]).toEqual({ type: 'reasoning.text', index: 0, text: 'a0b0' });
    expect(joined[details - 1]).toEqual({ type: 'reasoning.text', index: details - 1, text: `a${details - 1}b${details - 1}` });
    expect(joined[details]).toEqual({ type: 'reasoning.summary', index: 0, summary: 's' });
  });
});
