// Parts on the wire (issue 47): the OpenAI-compatible engine's raw request body on a loopback server
// (image_url, file, input_audio; a tool's image in the user message after its batch), and
// languageModelEngine on @ai-sdk/anthropic and @ai-sdk/google against their wire formats (the
// recorded streams of tests/fixtures/ai-sdk), and on specification v2 and v3 models.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, ChatRunner, type ContentPart, defineTool, isAmbiError, openAICompatible, type Tool, withParts } from '../../src/index.js';
import { languageModelEngine } from '../../src/ai-sdk/index.js';
import { type ProviderServer, startProviderServer } from '../support/provider-server.js';
import { PDF, PNG, PNG_BASE64 } from '../support/parts.js';
import { collect, request, useSseServer } from './engine-test-helpers.js';
import { chunk, DONE, textStream } from './sse-server.js';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const WAV = new Uint8Array([...new TextEncoder().encode('RIFF'), 36, 0, 0, 0, ...new TextEncoder().encode('WAVEfmt ')]);
const shot = (name = 'screenshot'): Tool =>
  defineTool({
    name,
    description: 'A screenshot',
    parameters: { type: 'object' },
    readOnly: true,
    call: () => withParts({ taken: true }, [{ type: 'image', image: PNG }]),
  });
const plain = defineTool({ name: 'clock', description: 'The time', parameters: { type: 'object' }, readOnly: true, call: () => 'noon' });

const callsThenAnswer = (...calls: Array<[string, string]>) => [
  chunk({
    role: 'assistant',
    content: null,
    tool_calls: calls.map(([id, name], index) => ({ index, id, type: 'function', function: { name, arguments: '{}' } })),
  }),
  chunk({}, 'tool_calls'),
  DONE,
];

describe('OpenAI-compatible engine: the raw body', () => {
  const local = useSseServer();

  it('sends a person image as image_url (a data: URL of its bytes), a PDF as a file part, WAV as input_audio', async () => {
    const server = await local.start(() => ({ pieces: textStream('Seen.') }));
    const agent = await Agent.make(openAICompatible({ baseURL: server.baseURL, model: 'm', accepts: { image: true, file: true } }));
    const input: ContentPart[] = [
      { type: 'text', text: 'Read these' },
      { type: 'image', image: PNG },
      { type: 'file', data: PDF, mediaType: 'application/pdf', filename: 'r.pdf' },
      { type: 'file', data: WAV, mediaType: 'audio/wav' },
    ];
    await new ChatRunner().run(agent, input).result;
    expect(server.requests[0]!.body).toContain(`"url":"data:image/png;base64,${PNG_BASE64}"`);
    expect(server.requests[0]!.json.messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Read these' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
        { type: 'file', file: { filename: 'r.pdf', file_data: `data:application/pdf;base64,${b64(PDF)}` } },
        { type: 'input_audio', input_audio: { data: b64(WAV), format: 'wav' } },
      ],
    });
  });

  it('encodes a Blob once for every request of one engine: its encoder, loaded with the first request that has parts, keeps what it read', async () => {
    let reads = 0;
    class CountedBlob extends Blob {
      override arrayBuffer() {
        reads++;
        return super.arrayBuffer();
      }
    }
    const image = new CountedBlob([PNG], { type: 'image/png' });
    const engine = await local.engineFor(() => ({ pieces: textStream('Seen.') }), { accepts: { image: true } });
    const asked = request({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image', image },
          ],
        },
      ],
    });
    await collect(engine, asked);
    await collect(engine, asked);
    const bodies = local.server.requests.map((sent) => sent.body);
    expect(bodies).toHaveLength(2);
    for (const body of bodies) expect(body).toContain(`"url":"data:image/png;base64,${PNG_BASE64}"`);
    expect(reads).toBe(1);
  });

  it("sends a tool's image in a user message after the batch of tool messages, naming its call", async () => {
    const server = await local.start((_, n) => ({ pieces: n === 0 ? callsThenAnswer(['c1', 'screenshot'], ['c2', 'clock']) : textStream('A pixel.') }));
    const agent = (await Agent.make(openAICompatible({ baseURL: server.baseURL, model: 'm' }))).tool(shot()).tool(plain);
    await new ChatRunner().run(agent, 'Look').result;
    const messages = server.requests[1]!.json.messages;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'user']);
    expect(messages[2]).toEqual({ role: 'tool', tool_call_id: 'c1', name: 'screenshot', content: '{"ok":true,"output":{"taken":true}}' });
    expect(messages[4]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: '[runtime] What tool call c1 (screenshot) returned beside its result:' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } },
      ],
    });
  });

  it('without native tools, the result and its image are one runtime user message', async () => {
    const server = await local.start((_, n) => ({ pieces: textStream(n === 0 ? '[TOOL_CALL]{"name":"screenshot","args":{}}[/TOOL_CALL]' : 'Done.') }));
    const agent = (await Agent.make(openAICompatible({ baseURL: server.baseURL, model: 'm', nativeTools: false }))).tool(shot());
    await new ChatRunner().run(agent, 'Look').result;
    const last = server.requests[1]!.json.messages.at(-1);
    expect(last.role).toBe('user');
    expect(last.content[0].text).toMatch(/^\[runtime\] Result of tool call .+ \(screenshot\): \{"ok":true/);
    expect(last.content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } });
  });

  it('sends an https: image as its URL; nothing is fetched but the model server', async () => {
    const server = await local.start(() => ({ pieces: textStream('Seen.') }));
    const agent = await Agent.make(openAICompatible({ baseURL: server.baseURL, model: 'm' }));
    await new ChatRunner().run(agent, [{ type: 'image', image: 'https://images.example/cat.jpg' }]).result;
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.json.messages.at(-1).content).toEqual([{ type: 'image_url', image_url: { url: 'https://images.example/cat.jpg' } }]);
  });

  it('a text-only model (accepts: {}) fails an image unsupported_content before any request', async () => {
    const server = await local.start(() => ({ pieces: textStream('never') }));
    const agent = await Agent.make(openAICompatible({ baseURL: server.baseURL, model: 'm', accepts: {} }));
    const error = await new ChatRunner().run(agent, [{ type: 'image', image: PNG }]).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'unsupported_content')).toBe(true);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses an accepts that is not { image?, file? }', () => {
    expect(() => openAICompatible({ baseURL: 'http://x/v1', model: 'm', accepts: { video: true } as never })).toThrow(
      expect.objectContaining({ code: 'invalid_engine_config' }),
    );
  });
});

describe('languageModelEngine on the providers wire formats', () => {
  let server: ProviderServer;
  beforeAll(async () => {
    server = await startProviderServer();
  });
  afterAll(() => server.close());

  it("@ai-sdk/anthropic: a person's image is an image block, a tool's image goes inside its tool_result", async () => {
    const session = `anthropic-parts-${crypto.randomUUID()}`;
    const model = createAnthropic({ baseURL: `${server.root(session, 'run')}/anthropic`, apiKey: 'k' })('claude-sonnet-4-5');
    const agent = (await Agent.make(languageModelEngine(model, { maxRetries: 0 }))).tool(shot('updateIssueList'));
    await new ChatRunner().run(agent, [
      { type: 'text', text: 'Look' },
      { type: 'image', image: PNG },
    ]).result;
    const [first, second] = server.requests(session);
    expect(first!.json.messages[0].content).toEqual([
      { type: 'text', text: 'Look' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
    ]);
    const result = second!.json.messages.at(-1).content[0];
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP' });
    expect(result.content).toEqual([
      { type: 'text', text: '{"ok":true,"output":{"taken":true}}' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
    ]);
  });

  it('@ai-sdk/anthropic: an https: image goes as a URL the provider fetches, never ambi-web', async () => {
    const session = `anthropic-url-${crypto.randomUUID()}`;
    const model = createAnthropic({ baseURL: `${server.root(session, 'run')}/anthropic`, apiKey: 'k' })('claude-sonnet-4-5');
    const agent = (await Agent.make(languageModelEngine(model, { maxRetries: 0 }))).tool(shot('updateIssueList'));
    await new ChatRunner().run(agent, [{ type: 'image', image: 'https://images.example/cat.png', mediaType: 'image/png' }]).result;
    expect(server.requests(session)[0]!.json.messages[0].content).toEqual([{ type: 'image', source: { type: 'url', url: 'https://images.example/cat.png' } }]);
  });

  it("@ai-sdk/google: a person's image is inline data", async () => {
    const session = `google-parts-${crypto.randomUUID()}`;
    const model = createGoogleGenerativeAI({ baseURL: `${server.root(session, 'run')}/google`, apiKey: 'k' })('gemini-3-pro-preview');
    const weather = defineTool({ name: 'weather', description: 'w', parameters: { type: 'object' }, readOnly: true, call: () => 'sunny' });
    const agent = (await Agent.make(languageModelEngine(model, { maxRetries: 0 }))).tool(weather);
    await new ChatRunner().run(agent, [
      { type: 'text', text: 'Where?' },
      { type: 'image', image: PNG },
    ]).result;
    expect(server.requests(session)[0]!.json.contents[0].parts).toEqual([{ text: 'Where?' }, { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } }]);
  });
});

describe('languageModelEngine, by specification version', () => {
  /** A model of `version` that calls `screenshot` once, then answers, keeping each call's options. */
  function versioned(version: 'v2' | 'v3') {
    const calls: Array<Record<string, any>> = [];
    const reply = (parts: unknown[]) => ({
      stream: new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
        },
      }),
    });
    const usage = version === 'v2' ? { inputTokens: 1, outputTokens: 1, totalTokens: 2 } : { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
    const finish = (reason: string) => ({ type: 'finish', finishReason: version === 'v2' ? reason : { unified: reason, raw: reason }, usage });
    const model = {
      specificationVersion: version,
      provider: 'test.chat',
      modelId: version,
      supportedUrls: {},
      doStream: async (options: Record<string, any>) => {
        calls.push(options);
        if (calls.length === 1) return reply([{ type: 'tool-call', toolCallId: 't1', toolName: 'screenshot', input: '{}' }, finish('tool-calls')]);
        return reply([{ type: 'text-start', id: '1' }, { type: 'text-delta', id: '1', delta: 'ok' }, { type: 'text-end', id: '1' }, finish('stop')]);
      },
    };
    return { model, calls };
  }

  it.each([
    ['v2', { type: 'media', data: PNG_BASE64, mediaType: 'image/png' }],
    ['v3', { type: 'image-data', data: PNG_BASE64, mediaType: 'image/png' }],
  ] as const)('%s: a person image is a file part of raw bytes; a tool image is %o in its content output', async (version, toolPart) => {
    const { model, calls } = versioned(version);
    const agent = (await Agent.make(languageModelEngine(model as never))).tool(shot());
    await new ChatRunner().run(agent, [{ type: 'image', image: PNG }]).result;
    expect(calls[0]!.prompt[0].content).toEqual([{ type: 'file', data: PNG, mediaType: 'image/png' }]);
    const result = calls[1]!.prompt.at(-1).content[0];
    expect(result.output).toEqual({ type: 'content', value: [{ type: 'text', text: '{"ok":true,"output":{"taken":true}}' }, toolPart] });
  });

  it('an https: image a provider does not fetch itself is unsupported_content, before any request', async () => {
    const { model, calls } = versioned('v3');
    const agent = await Agent.make(languageModelEngine(model as never));
    const error = await new ChatRunner().run(agent, [{ type: 'image', image: 'https://images.example/cat.png' }]).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'unsupported_content')).toBe(true);
    expect(calls).toHaveLength(0);
  });
});
