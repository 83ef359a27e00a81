// The local engine (real llama.cpp in Chromium, a generated tiny model with random weights): an output schema
// constrains the answering turn's grammar, and the model's own context size and tokenizer set the context budget.
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Agent, ChatRunner, localModel, MemoryConversationStore, type RunEvent } from '../../src/index.js';
import { createLocalEngine, type LocalEngine } from '../../src/extend/index.js';
import { tinyGguf } from '../support/tiny-gguf.js';

async function eventsOf(run: { events: AsyncIterable<RunEvent> }): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of run.events) events.push(event);
  return events;
}

const report = {
  type: 'object',
  properties: {
    ok: { type: 'boolean' },
    count: { type: 'integer' },
    kind: { enum: ['cat', 'dog', 'fish'] },
    name: { type: 'string', minLength: 1, maxLength: 10 },
    tags: { type: 'array', items: { type: 'string', maxLength: 4 }, maxItems: 3 },
  },
  required: ['ok', 'count', 'kind', 'name', 'tags'],
  additionalProperties: false,
} as const;

describe('an output schema on a local model: the answer is generated under its grammar', () => {
  let engine: LocalEngine;
  beforeAll(async () => {
    // Random weights and sampling at temperature 1: without the grammar, this model writes no JSON at all.
    engine = createLocalEngine(localModel({ source: new Blob([tinyGguf({ seed: 5 })]), temperature: 1, seed: 7, maxTokens: 200, threads: 1 }));
    await engine.load();
  }, 60_000);
  afterAll(() => engine.unload());

  test('every answer parses and validates against the schema on the first try', async () => {
    const validate = new Ajv().compile(report);
    const agent = await Agent.make(engine);
    const runner = new ChatRunner();
    for (const input of ['Describe a pet.', 'Another one.', 'And a third.']) {
      const result = await runner.run(agent, input, { output: report, maxOutputRetries: 0 }).result;
      expect(validate(result.output), JSON.stringify(validate.errors)).toBe(true);
      expect(JSON.parse(result.text)).toEqual(result.output);
      expect(result.iterations).toBe(1);
    }
  }, 60_000);

  test('a schema with keywords the grammar cannot express: a warning event says which, and the answer is still validated', async () => {
    const agent = await Agent.make(engine);
    const loose = {
      type: 'object',
      properties: { word: { type: 'string', maxLength: 6, pattern: '^[^\\n]*$' }, n: { type: 'integer', minimum: -1e20 } },
      required: ['word', 'n'],
    };
    const run = new ChatRunner().run(agent, 'Say a word.', { output: loose, maxOutputRetries: 0 });
    const events = await eventsOf(run);
    const result = await run.result;
    const warning = events.find((e) => e.type === 'warning');
    expect(warning).toMatchObject({ code: 'output_grammar_loose' });
    if (warning?.type === 'warning') expect(warning.message).toMatch(/pattern, minimum/);
    expect(new Ajv().validate(loose, result.output)).toBe(true);
  }, 60_000);

  test('an unconstrained reply of the same model is not JSON: the grammar is what makes it parse', async () => {
    const agent = await Agent.make(engine);
    const result = await new ChatRunner().run(agent, 'Describe a pet.').result;
    expect(() => JSON.parse(result.text)).toThrow();
  }, 60_000);
});

describe("a conversation longer than the local model's context", () => {
  let engine: LocalEngine;
  beforeAll(async () => {
    engine = createLocalEngine(
      localModel({ source: new Blob([tinyGguf({ seed: 2, contextLength: 512 })]), contextSize: 512, maxTokens: 24, temperature: 0.7, seed: 3, threads: 1 }),
    );
    await engine.load();
  }, 60_000);
  afterAll(() => engine.unload());

  test('the engine reports its context size and counts with its tokenizer', async () => {
    const budget = await engine.contextBudget();
    expect(budget).toMatchObject({ maxTokens: 512, reserveTokens: 24 });
    expect(budget.tokensPerMessage).toBeGreaterThan(4);
    // The tiny vocabulary is mostly single characters: a count near the length, nothing like length / 4.
    const tokens = await engine.countTokens('hello there, small model');
    expect(tokens).toBeGreaterThan(10);
    expect(tokens).toBeLessThanOrEqual(26);
    // Longer than the context: still counted (from llama.cpp's refusal).
    expect(await engine.countTokens('x'.repeat(900))).toBeGreaterThan(512);
  }, 60_000);

  test('keeps running: each run is trimmed to fit, none overflows, and the store keeps everything', async () => {
    const store = new MemoryConversationStore();
    const agent = await Agent.make(engine, { preamble: 'You chat.', conversations: store });
    const runner = new ChatRunner();
    let trimmed = 0;
    const runs = 16;
    for (let i = 0; i < runs; i++) {
      const run = runner.run(agent, `message number ${i}: tell me something about the weather today`, { conversation: 'long' });
      const events = await eventsOf(run);
      await run.result;
      trimmed += events.filter((e) => e.type === 'context_trimmed').length;
    }
    const messages = await store.load('long');
    expect(messages).toHaveLength(1 + runs * 2);
    // Well over the 512-token context in all, by the model's own count (and before any template framing).
    let tokens = 0;
    for (const message of messages) tokens += message.content ? await engine.countTokens(String(message.content)) : 0;
    expect(tokens).toBeGreaterThan(700);
    expect(trimmed).toBeGreaterThan(3);
  }, 120_000);
});
