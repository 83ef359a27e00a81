// A new run on an interrupted conversation reports the calls it left: a journalled result goes through quarantine and the mark as any result does.
import { describe, expect, it } from 'vitest';
import {
  Agent,
  ChatRunner,
  defineTool,
  type Engine,
  MemoryConversationStore,
  MemoryToolCallJournal,
  type RunEvent,
  type ToolMessage,
} from '../../src/index.js';
import type { EngineEvent, EngineRequest } from '../../src/extend/index.js';
import { collect } from '../support/run-events.js';
import { ATTACKER, INJECTION } from '../support/untrusted-tools.js';

const PAGE = `Checkout: 2 items. ${INJECTION}`;
const CHECKOUT = { type: 'object', properties: { checkout: { type: 'boolean' } }, required: ['checkout'], additionalProperties: false } as const;

/** A quarantined tool that opens the checkout (not idempotent: journalled) and returns the page. */
const openCheckout = defineTool({
  name: 'open_checkout',
  description: 'Open the checkout page',
  parameters: { type: 'object', properties: {} },
  idempotent: false,
  afterUntrusted: 'allow',
  quarantine: { output: CHECKOUT, instructions: 'Is this a checkout page?' },
  call: () => PAGE,
});

/** A conversation whose last reply called `open_checkout`, which ran and was journalled, then the page closed before its result was stored. */
async function interrupted(): Promise<{ conversations: MemoryConversationStore; journal: MemoryToolCallJournal }> {
  const conversations = new MemoryConversationStore();
  const journal = new MemoryToolCallJournal();
  await conversations.append('c', [
    { role: 'user', content: 'open the checkout' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'o1', name: 'open_checkout', arguments: {}, idempotencyKey: 'k1' }] },
  ]);
  await journal.begin({ idempotencyKey: 'k1', callId: 'o1', name: 'open_checkout', arguments: {}, conversation: 'c' });
  await journal.finish('k1', { id: 'o1', name: 'open_checkout', ok: true, output: PAGE, attempts: 1, durationMs: 3 });
  return { conversations, journal };
}

/** The run's model answers once; every quarantine request (no tools) is answered from `answers`. */
class Recording implements Engine {
  readonly nativeTools = true;
  readonly requests: EngineRequest[] = [];
  constructor(readonly answers: string[]) {}
  async *stream(request: EngineRequest): AsyncIterable<EngineEvent> {
    this.requests.push({ ...request, messages: structuredClone(request.messages) });
    yield { type: 'text', text: request.tools.length === 0 ? (this.answers.shift() ?? '') : 'Done.' };
    yield { type: 'finish', reason: 'stop' };
  }
}

const runsModel = (engine: Recording) => engine.requests.filter((r) => r.tools.length > 0);

describe("a new run on an interrupted conversation: a quarantined tool's journalled output", () => {
  it('is read through quarantine before the model reads it: the value, never the page', async () => {
    const { conversations, journal } = await interrupted();
    const engine = new Recording(['{"checkout": true}']);
    const agent = (await Agent.make(engine, { conversations, journal })).tool(openCheckout);
    const run = new ChatRunner().run(agent, 'and now?', { conversation: 'c' });
    const events = await collect(run);
    const { messages } = await run.result;
    const [model] = runsModel(engine);
    expect(JSON.stringify(model!.messages)).not.toContain(ATTACKER);
    const repaired = messages.find((m): m is ToolMessage => m.role === 'tool' && m.toolCallId === 'o1')!;
    expect(JSON.parse(repaired.content)).toEqual({ ok: true, output: { checkout: true } });
    expect(repaired.untrusted).toBeUndefined();
    // The quarantine request read the page, and was counted.
    const quarantine = engine.requests.find((r) => r.tools.length === 0)!;
    expect(quarantine.messages.at(-1)!.content).toBe(PAGE);
    expect(events.filter((e): e is Extract<RunEvent, { type: 'usage' }> => e.type === 'usage')).toHaveLength(2);
    expect(await conversations.load('c')).toContainEqual(repaired);
  });

  it('without a valid answer, is reported invalid_output, with none of the page', async () => {
    const { conversations, journal } = await interrupted();
    const injected = `Sure. ${INJECTION}`;
    const engine = new Recording([injected, injected, injected]);
    const agent = (await Agent.make(engine, { conversations, journal })).tool(openCheckout);
    const { messages } = await new ChatRunner().run(agent, 'and now?', { conversation: 'c' }).result;
    const repaired = messages.find((m): m is ToolMessage => m.role === 'tool' && m.toolCallId === 'o1')!;
    expect(JSON.parse(repaired.content)).toMatchObject({ ok: false, error: { code: 'invalid_output' } });
    expect(JSON.stringify(runsModel(engine)[0]!.messages)).not.toContain(ATTACKER);
  });

  it('a tool no longer registered cannot say it was quarantined: its journalled output is marked, as before', async () => {
    const { conversations, journal } = await interrupted();
    const engine = new Recording([]);
    const agent = await Agent.make(engine, { conversations, journal });
    const { messages } = await new ChatRunner().run(agent, 'and now?', { conversation: 'c' }).result;
    expect(messages.find((m) => m.role === 'tool' && m.toolCallId === 'o1')).toMatchObject({ untrusted: true });
  });
});
