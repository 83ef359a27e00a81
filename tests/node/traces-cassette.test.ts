// Record and replay: a run's model traffic as a JSON cassette (stable under re-recording), served
// again by replayEngine with each request checked against the recorded one.
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ChatRunner,
  defineTool,
  isAmbiError,
  MemorySnapshotStore,
  replayEngine,
  scriptedEngine,
  type Cassette,
  type ScriptedReply,
  type Tool,
} from '../../src/index.js';
import { ReplayMismatchError } from '../../src/extend/index.js';
import { useSseServer } from './engine-test-helpers.js';
import { collect } from '../support/run-events.js';

const empty = { type: 'object', properties: {} } as const;
/** Today's time, as a tool that reads a clock returns it: different at every recording. */
const clock = defineTool({ name: 'clock', description: 'The time now', parameters: empty, readOnly: true, call: () => new Date().toISOString() });
const lookUp = (description = 'Look a word up', meaning = 'a small bird') =>
  defineTool({
    name: 'look_up',
    description,
    parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
    readOnly: true,
    call: ({ word }) => `${word}: ${meaning}`,
  });

/** A scripted model whose call ids are random, as a server's are. */
function script(): ScriptedReply[] {
  return [
    {
      text: 'Let me check. ',
      toolCalls: [
        { name: 'clock', arguments: {} },
        { name: 'look_up', arguments: { word: 'wren' } },
      ],
      usage: { promptTokens: 9, completionTokens: 4, totalTokens: 13 },
    },
    { toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'Say it in French.' } }] },
    'Un troglodyte.', // the leaf's answer
    'A wren is a small bird (un troglodyte).',
  ];
}

async function recordRun(tools: Tool[] = [clock, lookUp()]): Promise<{ cassette: Cassette; text: string }> {
  const agent = (await Agent.make(scriptedEngine(script()), { preamble: 'Be brief.', record: true })).leaf({ store: new MemorySnapshotStore() });
  for (const tool of tools) agent.tool(tool);
  const { text } = await new ChatRunner().run(agent, 'What is a wren?', { conversation: 'c' }).result;
  return { cassette: agent.cassette(), text };
}

async function replay(cassette: Cassette, tools: Tool[] = [clock, lookUp()]) {
  const agent = (await Agent.make(replayEngine(cassette), { preamble: 'Be brief.' })).leaf({ store: new MemorySnapshotStore() });
  for (const tool of tools) agent.tool(tool);
  const run = new ChatRunner().run(agent, 'What is a wren?', { conversation: 'c' });
  const events = await collect(run);
  return { events, result: await run.result.catch((error: unknown) => error) };
}

describe('record and replay', () => {
  it('records every request of the run, the leaf’s included, as plain JSON', async () => {
    const { cassette } = await recordRun();
    expect(JSON.parse(JSON.stringify(cassette))).toEqual(cassette);
    expect(cassette).toMatchObject({ kind: 'ambi-web-cassette', version: 1, engine: { provider: 'ambi-web.scripted', nativeTools: true } });
    expect(cassette.interactions).toHaveLength(4);
    const [first, , leaf] = cassette.interactions;
    expect(first!.request.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'What is a wren?' },
    ]);
    expect(first!.request.tools.map((tool) => tool.name)).toEqual(['spawn_leaf', 'clock', 'look_up']);
    // The leaf's request: its parent's conversation so far, then its task; no spawn_leaf of its own.
    expect(leaf!.request.messages.at(-1)).toEqual({ role: 'user', content: 'Say it in French.' });
    expect(leaf!.request.tools.map((tool) => tool.name)).toEqual(['clock', 'look_up']);
    // Call ids named in order, keys left out, the clock's answer written <timestamp>.
    const second = cassette.interactions[1]!.request.messages;
    expect(second[2]).toEqual({
      role: 'assistant',
      content: 'Let me check. ',
      toolCalls: [
        { id: 'call_1', name: 'clock', arguments: {} },
        { id: 'call_2', name: 'look_up', arguments: { word: 'wren' } },
      ],
    });
    expect(second[3]).toEqual({ role: 'tool', toolCallId: 'call_1', name: 'clock', content: '{"ok":true,"output":"<timestamp>"}' });
  });

  it('writes the same JSON when the same run is recorded again', async () => {
    const first = await recordRun();
    await new Promise((resolve) => setTimeout(resolve, 5)); // another time, other random ids
    const second = await recordRun();
    expect(JSON.stringify(second.cassette)).toBe(JSON.stringify(first.cassette));
  });

  it('replays the run: the same answer, results and usage, every request checked', async () => {
    const { cassette, text } = await recordRun();
    const { result, events } = await replay(cassette);
    expect(result).toMatchObject({ text, iterations: 3 });
    const replayed = result as { toolResults: Array<{ name: string; ok: boolean }>; usage: unknown };
    expect(replayed.toolResults.map((r) => [r.name, r.ok])).toEqual([
      ['clock', true],
      ['look_up', true],
      ['spawn_leaf', true],
    ]);
    expect(events.filter((e) => e.type === 'usage' && e.leafId === undefined)[0]).toMatchObject({
      usage: { promptTokens: 9, completionTokens: 4, totalTokens: 13 },
    });
  });

  it('rejects with replay_mismatch naming the first difference: one changed tool description', async () => {
    const { cassette } = await recordRun();
    const { result } = await replay(cassette, [clock, lookUp('Look a word up in the dictionary')]);
    expect(isAmbiError(result, 'replay_mismatch')).toBe(true);
    expect(result).toBeInstanceOf(ReplayMismatchError);
    expect(result).toMatchObject({
      request: 1,
      path: '/tools/2/description',
      recorded: '"Look a word up"',
      now: '"Look a word up in the dictionary"',
    });
    expect((result as Error).message).toBe(
      'Request 1 of the replay is not the one recorded: at /tools/2/description (tool "look_up"), recorded "Look a word up", now "Look a word up in the dictionary"',
    );
  });

  it('names a difference in a later request (a tool that now answers otherwise), and no request is served after it', async () => {
    const { cassette } = await recordRun();
    const { result, events } = await replay(cassette, [clock, lookUp(undefined, 'a large bird')]);
    expect(result).toMatchObject({ code: 'replay_mismatch', request: 2, path: '/messages/4/content' });
    expect((result as Error).message).toContain('(message 5, tool)');
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(1);
  });

  it('rejects a run that makes more requests than were recorded', async () => {
    const agent = await Agent.make(scriptedEngine(['One.', 'Two.']), { record: true });
    await new ChatRunner().run(agent, 'first').result;
    const cassette = agent.cassette();
    const replaying = await Agent.make(replayEngine(cassette));
    expect((await new ChatRunner().run(replaying, 'first').result).text).toBe('One.');
    const error = await new ChatRunner().run(replaying, 'first').result.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'replay_mismatch', request: 2, recorded: '(none)' });
    expect((error as Error).message).toBe('Request 2 of the replay was not recorded: the cassette holds 1 request');
  });

  it('records a failed request and fails the replayed one the same way', async () => {
    const agent = await Agent.make(scriptedEngine([{ error: { status: 503, message: 'overloaded' } }]), { record: true });
    const recorded = await new ChatRunner().run(agent, 'hi').result.catch((e: unknown) => e);
    const cassette = agent.cassette();
    expect(cassette.interactions[0]!.response).toEqual({ error: { code: 'http_error', message: 'The model server answered 503: overloaded', status: 503 } });
    const replayed = await new ChatRunner().run(await Agent.make(replayEngine(cassette)), 'hi').result.catch((e: unknown) => e);
    expect(replayed).toMatchObject({ code: 'http_error', status: 503, message: (recorded as Error).message });
  });

  it('says cassette() needs record: true', async () => {
    const agent = await Agent.make(scriptedEngine(['Hi.']));
    expect(() => agent.cassette()).toThrow(expect.objectContaining({ code: 'invalid_option' }));
  });

  describe('against an OpenAI-compatible server (random call ids, usage)', () => {
    const sse = useSseServer();
    const chunk = (body: unknown) => `data: ${JSON.stringify(body)}\n\n`;

    it('replays a recording of real server traffic without the server', async () => {
      let served = 0;
      const server = await sse.start(() => {
        served++;
        const id = `call_${Math.random().toString(36).slice(2)}`;
        const pieces =
          served === 1
            ? [
                chunk({
                  choices: [
                    { index: 0, delta: { tool_calls: [{ index: 0, id, type: 'function', function: { name: 'look_up', arguments: '{"word":"owl"}' } }] } },
                  ],
                }),
                chunk({
                  choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }],
                  usage: { prompt_tokens: 30, completion_tokens: 8, total_tokens: 38 },
                }),
              ]
            : [
                chunk({
                  choices: [{ index: 0, delta: { content: 'An owl is a bird.' }, finish_reason: 'stop' }],
                  usage: { prompt_tokens: 50, completion_tokens: 6, total_tokens: 56 },
                }),
              ];
        return { pieces: [...pieces, 'data: [DONE]\n\n'] };
      });
      const { openAICompatible } = await import('../../src/index.js');
      const recording = (await Agent.make(openAICompatible({ baseURL: server.baseURL, model: 'm-1', apiKey: 'sk-secret' }), { record: true })).tool(lookUp());
      const recorded = await new ChatRunner().run(recording, 'What is an owl?').result;
      const cassette = recording.cassette();
      // Neither the server's address nor the key is in the cassette.
      expect(JSON.stringify(cassette)).not.toMatch(/127\.0\.0\.1|sk-secret/);
      expect(cassette.engine).toEqual({ provider: 'openai', model: 'm-1', nativeTools: true });
      await sse.server.close();
      const replaying = (await Agent.make(replayEngine(JSON.parse(JSON.stringify(cassette))))).tool(lookUp());
      const replayed = await new ChatRunner().run(replaying, 'What is an owl?').result;
      expect(replayed.text).toBe(recorded.text);
      expect(replayed.usage).toEqual(recorded.usage);
      expect(replayed.usage).toEqual({ promptTokens: 80, completionTokens: 14, totalTokens: 94, requests: 2 });
    });
  });
});

describe('a cassette edited by hand', () => {
  async function replayed(cassette: unknown): Promise<unknown> {
    const agent = (await Agent.make(replayEngine(cassette as Cassette))).tool(lookUp());
    return new ChatRunner().run(agent, 'hi').result.catch((e: unknown) => e);
  }
  const valid = (): Cassette => ({
    kind: 'ambi-web-cassette',
    version: 1,
    engine: { provider: 'p', nativeTools: true },
    interactions: [
      {
        request: {
          messages: [{ role: 'user', content: 'hi' }],
          tools: [
            { name: 'look_up', description: 'Look a word up', parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] } },
          ],
          callTags: { open: '[TOOL_CALL]', close: '[/TOOL_CALL]' },
        },
        response: {
          events: [
            { type: 'text', text: 'Hello.' },
            { type: 'finish', reason: 'stop' },
          ],
        },
      },
    ],
  });

  it('replays the valid one it starts from', async () => {
    expect(await replayed(valid())).toMatchObject({ text: 'Hello.' });
  });

  it.each([
    ['a number where text goes', (c: any) => (c.interactions[0].response.events[0].text = 42), '/interactions/0/response/events/0/text must be a string'],
    ['an unknown event type', (c: any) => (c.interactions[0].response.events[0].type = 'exec'), '/interactions/0/response/events/0/type must be'],
    ['a role the SDK never writes', (c: any) => (c.interactions[0].request.messages[0].role = 'developer'), '/interactions/0/request/messages/0/role must be'],
    ['an unknown version', (c: any) => (c.version = 2), '/version must be 1'],
    ['interactions that are not a list', (c: any) => (c.interactions = { 0: {} }), 'replayEngine needs a cassette'],
  ])('refuses %s with invalid_cassette, naming where', async (_what, edit, said) => {
    const cassette = valid();
    edit(cassette);
    const error = await replayed(cassette).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_cassette' });
    expect((error as Error).message).toContain(said);
  });

  it('keeps __proto__ keys as data: no prototype is touched, and a request that lacks one is a mismatch naming it', async () => {
    const text = JSON.stringify(valid()).replace('"role":"user"', '"__proto__":{"polluted":true},"role":"user"');
    const cassette = JSON.parse(text);
    const error = await replayed(cassette);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(error).toMatchObject({ code: 'replay_mismatch', path: '/messages/0/__proto__', now: '(absent)' });
  });

  it('serves recorded arguments with a __proto__ key as a plain key, never a prototype', async () => {
    const seen: unknown[] = [];
    const cassette = valid();
    cassette.interactions[0]!.response = {
      events: JSON.parse(
        '[{"type":"tool_call","call":{"id":"call_1","name":"look_up","arguments":{"word":"x","__proto__":{"polluted":true}}}},{"type":"finish","reason":"tool_calls"}]',
      ),
    };
    const agent = (await Agent.make(replayEngine(cassette))).tool(lookUp());
    const run = new ChatRunner().run(agent, 'hi', { maxIterations: 1 });
    for await (const event of run.events) if (event.type === 'tool_call') seen.push(event.call.arguments);
    await run.result.catch(() => undefined);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
    expect(Object.keys(seen[0] as object)).toEqual(['word', '__proto__']);
  });

  it('refuses a cassette nested deeper than any recording, without overflowing the stack', async () => {
    const cassette = valid() as any;
    let deep: any = {};
    cassette.interactions[0].request.tools[0].parameters.properties.word = deep;
    for (let i = 0; i < 100_000; i++) deep = deep.next = {};
    const error = await replayed(cassette);
    expect(error).toMatchObject({ code: 'invalid_cassette' });
    expect((error as Error).message).toContain('nests deeper than 256 levels');
  });

  it('replays a huge cassette in one pass: 20 000 recorded requests, one served per turn', async () => {
    const cassette = valid();
    const one = cassette.interactions[0]!;
    cassette.interactions = Array.from({ length: 20_000 }, () => one);
    const agent = (await Agent.make(replayEngine(cassette))).tool(lookUp());
    const runner = new ChatRunner();
    for (let i = 0; i < 3; i++) expect((await runner.run(agent, 'hi').result).text).toBe('Hello.');
  });

  it('refuses what is not a cassette at all when the engine is described', () => {
    for (const notOne of [null, 42, 'cassette', [], { kind: 'ambi-web-cassette' }]) {
      expect(() => replayEngine(notOne as unknown as Cassette)).toThrow(expect.objectContaining({ code: 'invalid_cassette' }));
    }
  });
});
