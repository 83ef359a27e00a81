// languageModelEngine on the real provider packages (@ai-sdk/anthropic, @ai-sdk/google,
// @ai-sdk/openai) against their own wire formats on a loopback server, replaying the streams the
// AI SDK's maintainers recorded: tool calls, usage, a 401, an abort mid-stream, for each.
import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, isAmbiError, type RunEvent } from '../../src/index.js';
import { languageModelEngine } from '../../src/ai-sdk/index.js';
import type { ProviderName } from '../support/provider-fixtures.js';
import { type ProviderServer, startProviderServer } from '../support/provider-server.js';
import { collect } from '../support/run-events.js';

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());

const KEY = 'test-key-0123456789';

/** The provider's model on `scenario` of a fresh session, as an app makes it (with a key entered on the page). */
function modelOf(provider: ProviderName, scenario: string) {
  const session = `${provider}-${scenario}-${crypto.randomUUID()}`;
  const root = server.root(session, scenario);
  const model =
    provider === 'anthropic'
      ? createAnthropic({ baseURL: `${root}/anthropic`, apiKey: KEY, headers: { 'anthropic-dangerous-direct-browser-access': 'true' } })('claude-sonnet-4-5')
      : provider === 'google'
        ? createGoogleGenerativeAI({ baseURL: `${root}/google`, apiKey: KEY })('gemini-3-pro-preview')
        : createOpenAI({ baseURL: `${root}/openai`, apiKey: KEY })('gpt-5.1-codex-max');
  return { session, model };
}

const echo = (name: string) =>
  defineTool({ name, description: `The ${name} tool`, parameters: { type: 'object' }, idempotent: true, call: (args) => ({ received: args }) });
const calculator = defineTool({
  name: 'calculator',
  description: 'a op b',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' }, op: { enum: ['add', 'multiply'] } }, required: ['a', 'b', 'op'] },
  readOnly: true,
  call: ({ a, b, op }) => (op === 'add' ? a + b : a * b),
});

async function run(provider: ProviderName, scenario: string, tools = [echo('updateIssueList'), echo('weather'), calculator]) {
  const { session, model } = modelOf(provider, scenario);
  const agent = await Agent.make(languageModelEngine(model, { maxRetries: 0 }));
  for (const tool of tools) agent.tool(tool);
  const started = new ChatRunner().run(agent, 'Go');
  const events = await collect(started);
  return { session, events, result: await started.result.catch((error: unknown) => error) };
}

const usages = (events: RunEvent[]) => events.flatMap((event) => (event.type === 'usage' ? [event.usage] : []));

describe('@ai-sdk/anthropic, recorded Messages API streams', () => {
  it('runs the recorded tool call, sends its result back as a tool_result block, and answers', async () => {
    const { session, events, result } = await run('anthropic', 'run');
    expect(result).toMatchObject({
      text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
      toolResults: [{ name: 'updateIssueList', ok: true, output: { received: {} } }],
    });
    // message_start's input tokens (cache reads and writes included), message_delta's output tokens.
    expect(usages(events)).toEqual([
      { promptTokens: 565, completionTokens: 48, totalTokens: 613, cacheReadTokens: 0, cacheWriteTokens: 0 },
      { promptTokens: 12, completionTokens: 30, totalTokens: 42, cacheReadTokens: 0, cacheWriteTokens: 0 },
    ]);
    const [first, second] = server.requests(session);
    expect(first!.headers).toMatchObject({ 'x-api-key': KEY, 'anthropic-dangerous-direct-browser-access': 'true' });
    expect(first!.json.tools).toContainEqual(
      expect.objectContaining({ name: 'updateIssueList', description: 'The updateIssueList tool', input_schema: { type: 'object' } }),
    );
    expect(second!.json.messages.at(-1)).toMatchObject({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP' }] });
  });

  it('runs a recorded call with arguments', async () => {
    const { result } = await run('anthropic', 'args', [echo('json')]);
    expect(result).toMatchObject({
      toolResults: [{ name: 'json', ok: true, output: { received: { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] } } }],
    });
  });

  it("keeps prompt-cache reads and writes, and leaves Anthropic's own code execution to Anthropic", async () => {
    const { events, result } = await run('anthropic', 'cache');
    expect(result).toMatchObject({ toolResults: [] });
    expect((result as { text: string }).text.length).toBeGreaterThan(0);
    expect(usages(events)[0]).toMatchObject({ cacheReadTokens: 6289, cacheWriteTokens: 3337 });
    expect(events.some((event) => event.type === 'tool_call')).toBe(false);
  });
});

describe('@ai-sdk/google, recorded Gemini API streams', () => {
  it("runs the recorded function call, echoes its thought signature, and counts the model's thinking as reasoning", async () => {
    const { session, events, result } = await run('google', 'run');
    expect(result).toMatchObject({
      text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
      toolResults: [{ name: 'weather', ok: true, output: { received: { location: 'San Francisco' } } }],
    });
    // Output tokens are the candidates' and the thoughts' (thoughtsTokenCount).
    expect(usages(events)).toEqual([
      { promptTokens: 29, completionTokens: 60, totalTokens: 89, cacheReadTokens: 0, reasoningTokens: 45 },
      { promptTokens: 9, completionTokens: 208, totalTokens: 217, cacheReadTokens: 0, reasoningTokens: 185 },
    ]);
    const [first, second] = server.requests(session);
    expect(first!.headers['x-goog-api-key']).toBe(KEY);
    const model = second!.json.contents.at(-2);
    expect(model.parts[0]).toMatchObject({
      functionCall: { name: 'weather', args: { location: 'San Francisco' } },
      thoughtSignature: expect.stringMatching(/^EqUCCq/),
    });
    expect(second!.json.contents.at(-1).parts[0]).toMatchObject({ functionResponse: { name: 'weather' } });
  });
});

describe('@ai-sdk/openai, recorded Responses API streams', () => {
  it('runs three recorded calculator calls in three turns, then answers with their result', async () => {
    const { session, events, result } = await run('openai', 'run');
    expect(result).toMatchObject({
      text: 'The final result is **570**.',
      toolResults: [{ output: 19 }, { output: 57 }, { output: 570 }],
      usage: { promptTokens: 914, completionTokens: 92, totalTokens: 1006, requests: 4, cacheReadTokens: 0, reasoningTokens: 0 },
    });
    expect(usages(events)).toHaveLength(4);
    const requests = server.requests(session);
    expect(requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(requests[1]!.json.input).toContainEqual(expect.objectContaining({ type: 'function_call_output', call_id: 'call_AB6AaRZ1FYZB2RwS6A5vbdqn' }));
  });

  it("fails the run when the stream reports an error after it started (the provider names it a 429), with OpenAI's words", async () => {
    const { result, events } = await run('openai', 'error');
    expect(isAmbiError(result, 'http_error')).toBe(true);
    expect(result).toMatchObject({ status: 429 });
    expect((result as Error).message).toContain('You exceeded your current quota');
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'http_error', details: { status: 429 } } });
  });
});

const refusal: Record<ProviderName, string> = {
  anthropic: 'anthropic.messages answered HTTP 401: invalid x-api-key',
  google: 'google.generative-ai answered HTTP 401: Request had invalid authentication credentials.',
  openai: 'openai.responses answered HTTP 401: Incorrect API key provided: ***.',
};

describe.each(['anthropic', 'google', 'openai'] as const)('%s: failures', (provider) => {
  it("turns the provider's 401 into http_error with the status, its words and no key", async () => {
    const { result } = await run(provider, 'unauthorized');
    expect(isAmbiError(result, 'http_error')).toBe(true);
    expect(result).toMatchObject({ status: 401 });
    const message = (result as Error).message;
    expect(message).toContain(refusal[provider]);
    expect(message).not.toContain(KEY);
    expect(message).not.toMatch(/sk-proj-abcdefghijklmnop/);
  });

  it('fails stream_cut when the connection breaks off mid-reply, not retried', async () => {
    const { session, result } = await run(provider, 'cut');
    expect(isAmbiError(result, 'stream_cut')).toBe(true);
    expect(server.requests(session)).toHaveLength(1);
  });

  it('aborts mid-stream: the request is cancelled at the server and the run ends aborted', async () => {
    const { session, model } = modelOf(provider, 'hold');
    const agent = (await Agent.make(languageModelEngine(model))).tool(echo('updateIssueList')).tool(echo('weather')).tool(calculator);
    const started = new ChatRunner().run(agent, 'Go');
    await server.sent(session);
    started.abort('the person pressed Stop');
    await expect(started.result).rejects.toMatchObject({ code: 'aborted' });
    await server.clientClosed(session);
    expect(server.requests(session)).toHaveLength(1);
  });
});
