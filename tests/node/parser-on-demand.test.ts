// The agent's default parser loads its code on first need: a plain-text reply never needs it,
// and once it is needed it reads exactly what TagToolCallParser reads.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, isAmbiError, TagToolCallParser } from '../../src/index.js';
import { DefaultTagParser } from '../../src/parser/default-parser.js';
import type { ParsePart } from '../../src/parser/types.js';
import { finish, StepEngine, text } from '../support/engines.js';

const add = defineTool({
  name: 'add',
  description: 'a + b',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  idempotent: true,
  call: ({ a, b }) => a + b,
});

/** What a stream's parts say, call ids aside (the parser makes them up). */
function readOf(parts: readonly ParsePart[]) {
  let prose = '';
  const rest: unknown[] = [];
  for (const part of parts) {
    if (part.type === 'text') prose += part.text;
    else if (part.type === 'call') rest.push({ call: part.call.name, arguments: part.call.arguments });
    else rest.push({ error: part.error.raw, message: part.error.message });
  }
  return { prose, rest };
}

function streamed(parser: { stream(): { push(c: string): readonly ParsePart[]; end(): readonly ParsePart[] } }, chunks: string[]) {
  const stream = parser.stream();
  const parts = chunks.flatMap((chunk) => [...stream.push(chunk)]);
  return readOf([...parts, ...stream.end()]);
}

const loaded = async () => {
  const parser = new DefaultTagParser();
  await parser.ready();
  return parser;
};

describe('DefaultTagParser', () => {
  it('used directly before it loaded, reads plain text but refuses a reply that may hold a call, coded', () => {
    const parser = new DefaultTagParser();
    expect(parser.ready('no call here')).toBeUndefined();
    expect(parser.parse('no call here')).toEqual({ text: 'no call here', calls: [], errors: [] });
    expect(readOf(parser.stream().push('plain'))).toEqual({ prose: 'plain', rest: [] });
    let thrown: unknown;
    try {
      parser.parse('[TOOL_CALL]{"name":"add","args":{}}[/TOOL_CALL]');
    } catch (error) {
      thrown = error;
    }
    expect(isAmbiError(thrown, 'parser_not_loaded')).toBe(true);
    expect(() => parser.instructions([])).toThrow('await `agent.parser.ready?.()` first');
  });

  it('asks for its code only for text holding the tags first character, or with no text (instructions)', async () => {
    const parser = new DefaultTagParser();
    expect(parser.ready('a reply without brackets')).toBeUndefined();
    const loading = parser.ready('a list [1, 2]');
    expect(loading).toBeInstanceOf(Promise);
    await loading;
    expect(parser.ready('a list [1, 2]')).toBeUndefined();
    expect(parser.ready()).toBeUndefined();
    expect(parser.instructions([add])).toBe(new TagToolCallParser().instructions([add]));
  });

  const replies = [
    'Sure. [TOOL_CALL]{"name":"add","args":{"a":1,"b":2}}[/TOOL_CALL] and then [TOOL_CALL]{"name":"add","arguments":{"a":3,"b":4}}[/TOOL_CALL] done',
    'prose first, then a broken block [TOOL_CALL]{"name": }[/TOOL_CALL] and an unclosed one [TOOL_CALL]{"name":"add"',
    'brackets that are not tags: [1, 2] [TOOL [TOOL_CAL [/TOOL_CALL] [TOOL_CALL]{"name":"add","args":{"a":"[/TOOL_CALL]","b":1}}[/TOOL_CALL]',
    'no call at all, just words',
    '[TOOL_CALL]{"name":"add","parameters":{"a":1,"b":1}}[/TOOL_CALL]',
  ];

  it.each(replies)('reads what TagToolCallParser reads, whatever the chunks: %s', async (reply) => {
    const reference = new TagToolCallParser();
    const expected = streamed(reference, [reply]);
    for (const size of [1, 2, 3, 7, 11, reply.length]) {
      const chunks: string[] = [];
      for (let i = 0; i < reply.length; i += size) chunks.push(reply.slice(i, i + size));
      // As the runner uses it: ready(chunk) awaited before each push (the code loads at the first `[`).
      const parser = new DefaultTagParser();
      const stream = parser.stream();
      const parts: ParsePart[] = [];
      for (const chunk of chunks) {
        await parser.ready(chunk);
        parts.push(...stream.push(chunk));
      }
      parts.push(...stream.end());
      expect(readOf(parts)).toEqual(expected);
      expect(streamed(await loaded(), chunks)).toEqual(expected);
    }
    expect((await loaded()).parse(reply)).toMatchObject({ text: reference.parse(reply).text });
  });
});

describe('a run on the default parser', () => {
  it('parses a tagged call that arrives after plain chunks (the code loads mid-reply)', async () => {
    const engine = new StepEngine(
      [
        [text('Let me add'), text(' those. [TOOL'), text('_CALL]{"name":"add","args":{"a":2,"b":3}}[/TOOL_CALL]'), finish()],
        [text('It is 5.'), finish()],
      ],
      false,
    );
    const agent = (await Agent.make(engine)).tool(add);
    const result = await new ChatRunner().run(agent, 'add 2 and 3').result;
    expect(result.text).toBe('It is 5.');
    expect(result.toolResults).toMatchObject([{ name: 'add', ok: true, output: 5 }]);
    // Calls in text are taught in the system prompt: the parser's instructions, loaded for it.
    const system = engine.requests[0]!.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain(new TagToolCallParser().instructions(agent.registry.definitions()));
  });

  it('on an engine with native calls, a plain-text answer never needs it', async () => {
    const engine = new StepEngine([[text('Just words, no brackets.'), finish()]], true);
    const agent = await Agent.make(engine);
    const result = await new ChatRunner().run(agent, 'hi').result;
    expect(result.text).toBe('Just words, no brackets.');
    expect(agent.parser).toBeInstanceOf(DefaultTagParser);
    expect((agent.parser as DefaultTagParser).ready('[')).toBeInstanceOf(Promise);
  });
});
