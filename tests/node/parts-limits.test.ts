// What an engine takes and what a conversation may hold (issue 47): `unsupported_content` before any
// request on a text-only engine, `describeImage` in its place, a tool's image left out with a note,
// `content_too_large` per part and per conversation, and an image's tokens in a context budget.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, isAmbiError, localModel, type MediaPart, MemoryConversationStore, type RunEvent, withParts } from '../../src/index.js';
import { collect } from '../support/run-events.js';
import { PartsEngine, PDF, PNG, partsOf, pngOfSize } from '../support/parts.js';

const screenshot = (parts: MediaPart[] = [{ type: 'image', image: PNG }]) =>
  defineTool({
    name: 'screenshot',
    description: 'The page as an image',
    parameters: { type: 'object' },
    readOnly: true,
    call: () => withParts({ taken: true }, parts),
  });

async function agentOn(engine: PartsEngine, options: Parameters<typeof Agent.make>[1] = {}) {
  const conversations = new MemoryConversationStore();
  return { agent: await Agent.make(engine, { conversations, ...options }), conversations };
}

const warnings = (events: RunEvent[]) => events.flatMap((e) => (e.type === 'warning' ? [e.code] : []));

describe('an engine that takes no images', () => {
  it('fails a person image with unsupported_content before any request, naming the part; nothing is stored', async () => {
    const engine = new PartsEngine(['never'], {});
    const { agent, conversations } = await agentOn(engine);
    const run = new ChatRunner().run(
      agent,
      [
        { type: 'text', text: 'Look' },
        { type: 'image', image: PNG },
      ],
      { conversation: 'c' },
    );
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'unsupported_content')).toBe(true);
    expect(error).toMatchObject({ part: 'part 2 of the message (image (image/png, 68 bytes))' });
    expect(engine.requests).toHaveLength(0);
    expect(await conversations.load('c')).toEqual([]);
  });

  it('fails a file on an engine that takes images only', async () => {
    const engine = new PartsEngine(['never'], { image: true });
    const { agent } = await agentOn(engine);
    const error = await new ChatRunner().run(agent, [{ type: 'file', data: PDF, mediaType: 'application/pdf' }]).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'unsupported_content')).toBe(true);
    expect(engine.requests).toHaveLength(0);
  });

  it('with describeImage, the model reads the description in the image place, and the conversation keeps the image', async () => {
    const engine = new PartsEngine(['A red square, then.'], {});
    const described: string[] = [];
    const { agent, conversations } = await agentOn(engine, {
      describeImage: async ({ image, mediaType }) => {
        described.push(`${mediaType} ${(image as Blob).size}`);
        return 'a red square';
      },
    });
    await new ChatRunner().run(
      agent,
      [
        { type: 'text', text: 'What is it?' },
        { type: 'image', image: PNG },
      ],
      { conversation: 'c' },
    ).result;
    expect(engine.requests[0]!.messages.at(-1)).toEqual({ role: 'user', content: 'What is it?\n\n[image: a red square]' });
    expect(described).toEqual(['image/png 68']);
    expect(partsOf((await conversations.load('c'))[0])).toHaveLength(1);
  });

  it("leaves a tool's image out with a note in its message, and warns once", async () => {
    const engine = new PartsEngine([{ calls: [{ id: 'c1', name: 'screenshot' }] }, 'I cannot see it.'], {});
    const { agent } = await agentOn(engine);
    agent.tool(screenshot());
    const run = new ChatRunner().run(agent, 'Take one');
    const events = await collect(run);
    expect((await run.result).text).toBe('I cannot see it.');
    const tool = engine.requests[1]!.messages.at(-1)!;
    expect(tool).toMatchObject({ role: 'tool', content: expect.stringContaining('[image (image/png, 68 bytes): not shown, this model takes no images]') });
    expect(partsOf(tool)).toEqual([]);
    expect(warnings(events)).toEqual(['unsupported_content']);
  });
});

describe('the local GGUF engine (text-only)', () => {
  it('fails an image unsupported_content before any request: the model is not even downloaded', async () => {
    const fetched: string[] = [];
    const fetch = (async (input: RequestInfo | URL) => {
      fetched.push(String(input));
      throw new Error('no network in this test');
    }) as typeof globalThis.fetch;
    const agent = await Agent.make(localModel({ source: 'https://models.example/tiny.gguf' }), { engine: { fetch } });
    expect(agent.engine.accepts).toBeUndefined();
    const error = await new ChatRunner()
      .run(agent, [
        { type: 'text', text: 'Look' },
        { type: 'image', image: PNG },
      ])
      .result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'unsupported_content')).toBe(true);
    expect(fetched).toEqual([]);
  });
});

describe('size caps', () => {
  it('a person part over maxPartBytes fails content_too_large before anything runs', async () => {
    const engine = new PartsEngine(['never']);
    const { agent } = await agentOn(engine, { maxPartBytes: 1000 });
    const error = await new ChatRunner().run(agent, [{ type: 'image', image: pngOfSize(1001) }]).result.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'content_too_large', part: 'part 1 (image)', message: expect.stringContaining('maxPartBytes (1.0 kB)') });
    expect(engine.requests).toHaveLength(0);
  });

  it('a data: URL over the cap is refused before it is decoded (its length says enough)', async () => {
    const { agent } = await agentOn(new PartsEngine(['never']), { maxPartBytes: 1000 });
    const error = await new ChatRunner().run(agent, [{ type: 'image', image: `data:image/png;base64,${'A'.repeat(2000)}` }]).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'content_too_large')).toBe(true);
  });

  it('a conversation whose parts would pass maxConversationBytes refuses the message, and keeps what it had', async () => {
    const engine = new PartsEngine(['One.', 'never']);
    const { agent, conversations } = await agentOn(engine, { maxConversationBytes: 1500 });
    await new ChatRunner().run(agent, [{ type: 'image', image: pngOfSize(1000) }], { conversation: 'c' }).result;
    const error = await new ChatRunner().run(agent, [{ type: 'image', image: pngOfSize(600) }], { conversation: 'c' }).result.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'content_too_large', message: expect.stringContaining('maxConversationBytes') });
    expect(await conversations.load('c')).toHaveLength(2);
    expect(engine.requests).toHaveLength(1);
  });

  it("a tool's part over maxPartBytes fails the call content_too_large, its output said, its parts not kept", async () => {
    const engine = new PartsEngine([{ calls: [{ id: 'c1', name: 'screenshot' }] }, 'Too big.']);
    const { agent } = await agentOn(engine, { maxPartBytes: 100 });
    agent.tool(screenshot([{ type: 'image', image: pngOfSize(500) }]));
    const result = await new ChatRunner().run(agent, 'Take one').result;
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'content_too_large', message: expect.stringContaining('{"taken":true}') } });
    expect(partsOf(engine.requests[1]!.messages.at(-1))).toEqual([]);
  });

  it("a tool's parts that would take the conversation past its cap fail the call", async () => {
    const engine = new PartsEngine([
      {
        calls: [
          { id: 'c1', name: 'screenshot' },
          { id: 'c2', name: 'screenshot' },
        ],
      },
      'Enough.',
    ]);
    const { agent } = await agentOn(engine, { maxConversationBytes: 700 });
    agent.tool(screenshot([{ type: 'image', image: pngOfSize(400) }]));
    const result = await new ChatRunner().run(agent, 'Two').result;
    expect(result.toolResults.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['ok', 'content_too_large']);
  });

  it('refuses caps that are not whole numbers of bytes, and a describeImage that is no function', async () => {
    for (const options of [{ maxPartBytes: 0 }, { maxConversationBytes: 1.5 }, { describeImage: 'caption' }]) {
      await expect(Agent.make(new PartsEngine([]), options as never)).rejects.toMatchObject({ code: 'invalid_option' });
    }
  });
});

describe('tools return parts', () => {
  it("a tool's image reaches the request in its tool message, and the result keeps it", async () => {
    const engine = new PartsEngine([{ calls: [{ id: 'c1', name: 'screenshot' }] }, 'A pixel.']);
    const { agent } = await agentOn(engine);
    agent.tool(screenshot());
    const result = await new ChatRunner().run(agent, 'Take one').result;
    const tool = engine.requests[1]!.messages.at(-1)!;
    expect(tool).toMatchObject({ role: 'tool', content: '{"ok":true,"output":{"taken":true}}' });
    expect(partsOf(tool)).toEqual([{ type: 'image', image: expect.any(Blob), mediaType: 'image/png' }]);
    expect(result.toolResults[0]).toMatchObject({ ok: true, output: { taken: true }, parts: [{ type: 'image', mediaType: 'image/png' }] });
  });

  it('a tool whose parts are not parts fails invalid_content (the model reads why)', async () => {
    const engine = new PartsEngine([{ calls: [{ id: 'c1', name: 'screenshot' }] }, 'Broken.']);
    const { agent } = await agentOn(engine);
    agent.tool(screenshot([{ type: 'image', image: 'javascript:alert(1)' }]));
    const result = await new ChatRunner().run(agent, 'Take one').result;
    expect(result.toolResults[0]).toMatchObject({ ok: false, error: { code: 'invalid_content' } });
  });

  it('what JSON reads of withParts is the output alone', () => {
    expect(JSON.stringify(withParts({ a: 1 }, [{ type: 'image', image: PNG }]))).toBe('{"a":1}');
  });
});

describe('context budgets', () => {
  it('count an image at its stated estimate (1,600 tokens): an old image is trimmed out before it would overflow', async () => {
    const engine = new PartsEngine(['First.', 'Second.']);
    const { agent } = await agentOn(engine, { context: { maxTokens: 2000, reserveTokens: 100 } });
    await new ChatRunner().run(agent, [{ type: 'image', image: PNG }], { conversation: 'c' }).result;
    const run = new ChatRunner().run(agent, [{ type: 'image', image: PNG }], { conversation: 'c' });
    const events = await collect(run);
    await run.result;
    // The first run's image (its user message) is left out: two images would not fit in 1,900 tokens.
    expect(events.find((e) => e.type === 'context_trimmed')).toMatchObject({ droppedMessages: 1 });
    expect(engine.requests[1]!.messages.filter((m) => partsOf(m).length > 0)).toHaveLength(1);
  });
});
