// The local engine's grammar writes calls between the agent's parser's tags. llama.cpp is faked:
// this fake Wllama records each completion's options and answers with a scripted reply.
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { Agent, ChatRunner, defineTool, localModel, TagToolCallParser, type ToolDefinition } from '../../src/index.js';
import { createLocalEngine } from '../../src/extend/index.js';
import { tinyGguf } from '../support/tiny-gguf.js';

interface Completion {
  grammar?: string;
  onData: (chunk: unknown) => void;
}

const fake = vi.hoisted(() => ({ completions: [] as Completion[], replies: [] as string[] }));

vi.mock('@wllama/wllama', () => ({
  Wllama: class {
    async loadModel() {}
    getLoadedContextInfo() {
      return { success: true };
    }
    // The context budget's counts (a prompt's usage, see local-tokens.ts): answered, not recorded.
    mustAddBosToken() {
      return true;
    }
    async createCompletion(options: { prompt: string }) {
      return { usage: { prompt_tokens: options.prompt.length + 1 } };
    }
    async createChatCompletion(options: Completion) {
      if (!options.onData) return { usage: { prompt_tokens: 12 } };
      fake.completions.push(options);
      const content = fake.replies.shift() ?? 'done';
      options.onData({ choices: [{ delta: { content } }] });
      options.onData({ choices: [{ delta: {}, finish_reason: 'stop' }] });
    }
    async exit() {}
  },
}));

const config = () => localModel({ source: new Blob([tinyGguf()]), wasmUrl: 'fake.wasm' });
const addParameters = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] } as const;
const add = defineTool({ name: 'add', description: 'Add.', parameters: addParameters, idempotent: true, call: (args) => args.a + args.b });

beforeEach(() => {
  fake.completions.length = 0;
  fake.replies.length = 0;
});

describe('local engine: call tags', () => {
  test('an agent with the Hermes parser gets a grammar with the Hermes tags, and its calls run', async () => {
    fake.replies.push('<tool_call>{"name": "add", "args": {"a": 2, "b": 3}}</tool_call>', 'It is 5.');
    const agent = (await Agent.make(config(), { parser: TagToolCallParser.hermes() })).tool(add);
    const result = await new ChatRunner().run(agent, 'What is 2 + 3?', { maxIterations: 3 }).result;

    const grammar = fake.completions[0]!.grammar!;
    expect(grammar).toContain('"<tool_call>"');
    expect(grammar).toContain('"</tool_call>"');
    expect(grammar).not.toContain('TOOL_CALL');
    expect(result.toolResults).toMatchObject([{ name: 'add', ok: true, output: 5 }]);
    expect(result.text).toBe('It is 5.');
  });

  test('an agent with the default parser gets the [TOOL_CALL] tags', async () => {
    const agent = (await Agent.make(config())).tool(add);
    await new ChatRunner().run(agent, 'Hi', { maxIterations: 1 }).result;
    expect(fake.completions[0]!.grammar).toContain('"[TOOL_CALL]"');
  });

  test('a request with tags no parser accepts fails with invalid_tags before anything loads', async () => {
    const engine = createLocalEngine(config());
    const tools: ToolDefinition[] = [{ name: 'add', description: 'Add.', parameters: addParameters }];
    const events = engine.stream({ messages: [], tools, callTags: { open: '<x>', close: '<x>' } })[Symbol.asyncIterator]();
    await expect(events.next()).rejects.toMatchObject({ code: 'invalid_tags' });
    expect(engine.model).toBeUndefined();
  });
});
