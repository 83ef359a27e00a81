// The local engine on a real llama.cpp (wllama) in Chromium, with a tiny model generated here.
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  Agent,
  ChatRunner,
  defineTool,
  localModel,
  TagToolCallParser,
  type LocalModelProgress,
  type Message,
  type RunEvent,
  type ToolDefinition,
} from '../../src/index.js';
import { createLocalEngine, type EngineEvent, type EngineRequest, type LocalEngine } from '../../src/extend/index.js';
import { tinyGguf } from '../support/tiny-gguf.js';

const user = (content: string): Message[] => [{ role: 'user', content }];

async function collect(stream: AsyncIterable<EngineEvent>): Promise<EngineEvent[]> {
  const events: EngineEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}
const textOf = (events: EngineEvent[]) => events.map((e) => (e.type === 'text' ? e.text : '')).join('');

const addParameters = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a', 'b'] } as const;
const noteParameters = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 24 },
    tags: { type: 'array', items: { enum: ['work', 'home'] }, maxItems: 2 },
    due: { type: ['string', 'null'] },
    meta: { type: 'object', properties: { pinned: { type: 'boolean' }, score: { type: 'number' } }, required: ['pinned'] },
  },
  required: ['title'],
} as const;

describe('a tiny model from a Blob (greedy, no end-of-text token)', () => {
  let engine: LocalEngine;
  const progress: LocalModelProgress[] = [];

  beforeAll(async () => {
    // `endless`: the model never picks `</s>` by itself, so replies run to maxTokens.
    const config = localModel({ source: new Blob([tinyGguf({ endless: true })]), maxTokens: 200, temperature: 0, threads: 1 });
    engine = createLocalEngine(config, { onProgress: (event) => progress.push(event) });
    await engine.load();
  });
  afterAll(() => engine.unload());

  test('loads from the Blob: progress says load then ready, and the model reports its facts', () => {
    expect(progress.map((p) => p.phase)).toEqual(['load', 'ready']);
    expect(progress[0]).toEqual({ phase: 'load', bytes: tinyGguf({ endless: true }).length, from: 'blob' });
    expect(engine.model).toMatchObject({ from: 'blob', contextSize: 4096, template: 'model' });
    expect(engine.nativeTools).toBe(false);
  });

  test('streams text token by token, then usage, then finish', async () => {
    const events = await collect(engine.stream({ messages: user('Say something.'), tools: [] }));
    const texts = events.filter((e) => e.type === 'text');
    expect(texts.length).toBeGreaterThan(20);
    expect(textOf(events)).not.toContain('\uFFFD');
    expect(events.at(-2)).toMatchObject({ type: 'usage', usage: { completionTokens: 200 } });
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'length' });
  });

  test('an abort mid-generation rejects with code aborted, and the engine stays usable', async () => {
    const controller = new AbortController();
    const seen: string[] = [];
    const reading = (async () => {
      for await (const event of engine.stream({ messages: user('Talk.'), tools: [], signal: controller.signal })) {
        if (event.type !== 'text') continue;
        seen.push(event.text);
        if (seen.length === 5) controller.abort(new Error('stop'));
      }
    })();
    await expect(reading).rejects.toMatchObject({ code: 'aborted' });
    expect(seen.length).toBeGreaterThanOrEqual(5);
    expect(seen.length).toBeLessThan(20);

    const after = await collect(engine.stream({ messages: user('Again.'), tools: [] }));
    expect(after.at(-1)).toEqual({ type: 'finish', reason: 'length' });
  });

  test('a reader that stops early frees the model for the next request', async () => {
    for await (const event of engine.stream({ messages: user('Go.'), tools: [] })) if (event.type === 'text') break;
    const after = await collect(engine.stream({ messages: user('Go on.'), tools: [] }));
    expect(after.at(-1)).toMatchObject({ type: 'finish' });
  });

  test('requests at the same time take turns: the second starts after the first finished', async () => {
    const order: string[] = [];
    const run = async (name: string) => {
      for await (const event of engine.stream({ messages: user(name), tools: [] })) {
        if (event.type === 'text' && order.at(-1) !== `${name} text`) order.push(`${name} text`);
        if (event.type === 'finish') order.push(`${name} finish`);
      }
    };
    await Promise.all([run('first'), run('second')]);
    expect(order).toEqual(['first text', 'first finish', 'second text', 'second finish']);
  });

  test("toolChoice 'none' with tools registered: text only, never a tag", async () => {
    const tools: ToolDefinition[] = [{ name: 'add', description: 'Add', parameters: addParameters }];
    const events = await collect(engine.stream({ messages: user('Add 2 and 3.'), tools, toolChoice: 'none' }));
    expect(textOf(events).length).toBeGreaterThan(0);
    expect(textOf(events)).not.toContain('[TOOL_CALL]');
  });

  test('a ChatRunner run: a forced call runs a real tool, its result goes back, then the model answers', async () => {
    const ran: Array<{ a: number; b: number }> = [];
    const add = defineTool({
      name: 'add',
      description: 'Add two integers.',
      parameters: addParameters,
      idempotent: true,
      call: (args) => {
        ran.push(args);
        return args.a + args.b;
      },
    });
    const requests: EngineRequest[] = [];
    const recording = { nativeTools: engine.nativeTools, stream: (request: EngineRequest) => (requests.push(request), engine.stream(request)) };
    const agent = (await Agent.make(recording, { preamble: 'You add numbers with the add tool.' })).tool(add);
    const run = new ChatRunner().run(agent, 'What is 2 + 3?', { toolChoice: 'required', maxIterations: 3 });
    const events: RunEvent[] = [];
    for await (const event of run.events) events.push(event);
    const result = await run.result;

    expect(result.iterations).toBe(2);
    expect(ran.length).toBeGreaterThanOrEqual(1);
    expect(result.toolResults).toHaveLength(ran.length);
    for (const [i, toolResult] of result.toolResults.entries()) {
      expect(toolResult).toMatchObject({ name: 'add', ok: true, output: ran[i]!.a + ran[i]!.b });
    }
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['tool_call', 'tool_started', 'tool_finished', 'run_finished']));
    // The call was written as tagged text; the result went back to the model on the second turn.
    const [first, second] = result.messages.filter((m) => m.role === 'assistant');
    const written = new TagToolCallParser().parse(first!.content);
    expect(written).toMatchObject({ text: '', errors: [], calls: [{ name: 'add', arguments: ran[0] }] });
    expect(requests).toHaveLength(2);
    expect(requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', name: 'add', content: JSON.stringify({ ok: true, output: ran[0]!.a + ran[0]!.b }) });
    expect(second!.content).not.toContain('[TOOL_CALL]');
    expect(result.text).toBe(second!.content.trim());
  }, 30_000);

  test('a forced { name } call with a nested schema validates and runs', async () => {
    const saved: unknown[] = [];
    const saveNote = defineTool({
      name: 'save_note',
      description: 'Save a note.',
      parameters: noteParameters,
      idempotent: false,
      call: (args) => (saved.push(args), 'saved'),
    });
    const add = defineTool({ name: 'add', description: 'Add.', parameters: addParameters, idempotent: true, call: (args) => args.a + args.b });
    const agent = (await Agent.make(engine)).tool(add).tool(saveNote);
    const result = await new ChatRunner().run(agent, 'Remember to buy milk.', { toolChoice: { name: 'save_note' }, maxIterations: 3 }).result;
    expect(result.toolResults[0]).toMatchObject({ name: 'save_note', ok: true, output: 'saved' });
    expect(new Ajv().validate(noteParameters, saved[0])).toBe(true);
  }, 30_000);
});

describe('tool calls that always parse (sampling at temperature 1)', () => {
  let engine: LocalEngine;
  beforeAll(async () => {
    // A fixed sampler seed keeps the run repeatable; each prompt differs, so each reply does.
    engine = createLocalEngine(localModel({ source: new Blob([tinyGguf({ seed: 3 })]), temperature: 1, seed: 42, threads: 1 }));
    await engine.load();
  });
  afterAll(() => engine.unload());

  test("every 'required' reply is exactly one call, to a registered tool, with arguments that fit its schema", async () => {
    const tools: ToolDefinition[] = [
      { name: 'add', description: 'Add two integers.', parameters: addParameters },
      { name: 'save_note', description: 'Save a note.', parameters: noteParameters },
    ];
    const ajv = new Ajv();
    const parser = new TagToolCallParser();
    const system: Message = { role: 'system', content: parser.instructions(tools) };
    for (let i = 0; i < 6; i++) {
      const events = await collect(engine.stream({ messages: [system, { role: 'user', content: `Request ${i}` }], tools, toolChoice: 'required' }));
      const parsed = parser.parse(textOf(events));
      expect(parsed.errors, textOf(events)).toEqual([]);
      expect(parsed.text.trim()).toBe('');
      expect(parsed.calls).toHaveLength(1);
      const [call] = parsed.calls;
      const tool = tools.find((t) => t.name === call!.name);
      expect(tool, call!.name).toBeDefined();
      expect(ajv.validate(tool!.parameters, call!.arguments), JSON.stringify(call!.arguments)).toBe(true);
    }
  }, 60_000);
});

// One model load per test (each loads llama.cpp's runtime and a model: a few seconds under load),
// and the model's own template measured once, so no test holds three loads under one time limit.
describe('chat template', () => {
  const messages: Message[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hello there.' },
  ];
  async function promptTokens(options: { chatTemplate?: string | null; template?: string }): Promise<{ tokens: number; template: string }> {
    const source = new Blob([tinyGguf({ chatTemplate: options.chatTemplate ?? undefined, ...(options.chatTemplate === null ? { chatTemplate: null } : {}) })]);
    const engine = createLocalEngine(
      localModel({ source, maxTokens: 1, temperature: 0, threads: 1, ...(options.template ? { template: options.template } : {}) }),
    );
    try {
      const events = await collect(engine.stream({ messages, tools: [] }));
      const usage = events.find((e) => e.type === 'usage');
      return { tokens: usage?.type === 'usage' ? usage.usage.promptTokens : NaN, template: engine.model!.template };
    } finally {
      await engine.unload();
    }
  }

  let own: { tokens: number; template: string };
  beforeAll(async () => {
    own = await promptTokens({});
  }, 60_000);

  test("the model's own template is used when it has one", () => {
    expect(own.template).toBe('model');
    expect(own.tokens).toBeGreaterThan(0);
  });

  test('a model without a template gets ChatML', async () => {
    const fallback = await promptTokens({ chatTemplate: null });
    expect(fallback.template).toBe('default');
    // The generated model carries ChatML itself, so its prompt and the default's are the same length.
    expect(fallback.tokens).toBe(own.tokens);
  }, 60_000);

  test("the template option overrides the model's", async () => {
    const override = await promptTokens({ template: '{% for m in messages %}{{ m.content }}{% endfor %}' });
    expect(override.template).toBe('option');
    // "Be brief.Hello there." alone, against the same wrapped in ChatML markers.
    expect(override.tokens).toBeLessThan(own.tokens - 20);
  }, 60_000);
});
