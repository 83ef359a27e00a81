// Quarantine requests are counted as model turns are: estimates, refused counts, one usage event each, the token budget.
import { describe, expect, it } from 'vitest';
import { Agent, type BudgetExceededError, ChatRunner, defineTool, type Engine, isAmbiError, type RunEvent, type Usage } from '../../src/index.js';
import type { EngineEvent, EngineRequest } from '../../src/extend/index.js';
import { collect } from '../support/run-events.js';
import { INJECTION } from '../support/untrusted-tools.js';

const CHECKOUT = { type: 'object', properties: { checkout: { type: 'boolean' } }, required: ['checkout'], additionalProperties: false } as const;

/** A quarantined tool over a page of `chars` characters (about chars / 4 tokens). */
const isCheckout = (chars: number) =>
  defineTool({
    name: 'is_checkout',
    description: 'Whether the page is a checkout page',
    parameters: { type: 'object', properties: {} },
    readOnly: true,
    quarantine: { output: CHECKOUT, instructions: 'Is this page a checkout page?' },
    call: () => `Checkout. ${INJECTION} ${'x'.repeat(chars)}`,
  });

/**
 * The run's model calls `is_checkout` (as many times as `calls`), then answers; every quarantine
 * request (no tools, an answer format) is answered from `answers`, then `{"checkout": true}`, with `quarantineUsage`
 * events (none, bad counts, or several). The run's own requests report small, right counts.
 */
class Counted implements Engine {
  readonly nativeTools = true;
  readonly requests: EngineRequest[] = [];
  #turns = 0;
  constructor(
    readonly quarantineUsage: Usage[],
    readonly calls = 1,
    readonly answers: string[] = [],
  ) {}
  async *stream(request: EngineRequest): AsyncIterable<EngineEvent> {
    this.requests.push(request);
    if (request.tools.length === 0 && request.output !== undefined) {
      yield { type: 'text', text: this.answers.shift() ?? '{"checkout": true}' };
      for (const usage of this.quarantineUsage) yield { type: 'usage', usage };
      yield { type: 'finish', reason: 'stop' };
      return;
    }
    const turn = this.#turns++;
    if (turn < this.calls) yield { type: 'tool_call', call: { id: `q${turn}`, name: 'is_checkout', arguments: {} } };
    else yield { type: 'text', text: 'It is a checkout.' };
    yield { type: 'usage', usage: { promptTokens: 10, completionTokens: 2, totalTokens: 12 } };
    yield { type: 'finish', reason: turn < this.calls ? 'tool_calls' : 'stop' };
  }
}

const usages = (events: readonly RunEvent[]) => events.flatMap((e) => (e.type === 'usage' ? [e.usage] : []));
const quarantineRequests = (engine: Counted) => engine.requests.filter((r) => r.tools.length === 0).length;

describe('quarantine requests are counted as turns are', () => {
  it('a server that gives no counts: each quarantine request is estimated from what it sent and got (the page included)', async () => {
    const engine = new Counted([]);
    const agent = (await Agent.make(engine)).tool(isCheckout(8000));
    const run = new ChatRunner().run(agent, 'checkout?');
    const events = await collect(run);
    const { usage, toolResults } = await run.result;
    expect(toolResults[0]).toMatchObject({ ok: true, output: { checkout: true } });
    const seen = usages(events);
    expect(seen).toHaveLength(3);
    const estimated = seen.filter((u) => u.estimated);
    expect(estimated).toHaveLength(1);
    // The page alone is about 2 000 tokens.
    expect(estimated[0]!.promptTokens).toBeGreaterThan(2000);
    expect(usage).toMatchObject({ requests: 3, estimated: true, totalTokens: 24 + estimated[0]!.totalTokens });
  });

  it('counts that cannot be right (negative) are refused with an invalid_usage warning and estimated instead', async () => {
    const engine = new Counted([{ promptTokens: -5000, completionTokens: 3, totalTokens: -4997 }]);
    const agent = (await Agent.make(engine)).tool(isCheckout(100));
    const run = new ChatRunner().run(agent, 'checkout?');
    const events = await collect(run);
    expect(events.filter((e) => e.type === 'warning' && e.code === 'invalid_usage')).toHaveLength(1);
    const quarantine = usages(events).filter((u) => u.estimated);
    expect(quarantine).toHaveLength(1);
    expect(quarantine[0]!.promptTokens).toBeGreaterThan(0);
    expect((await run.result).usage!.totalTokens).toBeGreaterThan(24);
  });

  it('one usage event per quarantine request, whatever the server reports along the way (the last counts)', async () => {
    const engine = new Counted([
      { promptTokens: 900, completionTokens: 1, totalTokens: 901 },
      { promptTokens: 900, completionTokens: 6, totalTokens: 906 },
    ]);
    const agent = (await Agent.make(engine)).tool(isCheckout(100));
    const run = new ChatRunner().run(agent, 'checkout?');
    const events = await collect(run);
    expect(usages(events)).toEqual([
      { promptTokens: 10, completionTokens: 2, totalTokens: 12 },
      { promptTokens: 900, completionTokens: 6, totalTokens: 906 },
      { promptTokens: 10, completionTokens: 2, totalTokens: 12 },
    ]);
    expect((await run.result).usage).toEqual({ promptTokens: 920, completionTokens: 10, totalTokens: 930, requests: 3 });
  });

  it('maxTokens holds through quarantine: a page of 20 000 tokens read with no counts from the server ends the run budget_exceeded', async () => {
    const engine = new Counted([]);
    const agent = (await Agent.make(engine, { maxResultChars: 200_000 })).tool(isCheckout(80_000));
    const error = await new ChatRunner().run(agent, 'checkout?', { maxTokens: 2000 }).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'budget_exceeded')).toBe(true);
    expect((error as { usedTokens: number }).usedTokens).toBeGreaterThan(20_000);
    // The run's model was not asked again after the quarantine request spent the budget.
    expect(engine.requests).toHaveLength(2);
  });

  it('the budget is checked before each quarantine request, a second answer too: past it, none is made and the call ends budget_exceeded', async () => {
    // The first answer does not match; the request that read the page (no counts: estimated) spent the budget, so none follows.
    const engine = new Counted([], 1, ['Yes, it is.', '{"checkout": true}']);
    const agent = (await Agent.make(engine, { maxResultChars: 200_000 })).tool(isCheckout(40_000));
    const error = await new ChatRunner().run(agent, 'checkout?', { maxTokens: 2000 }).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'budget_exceeded')).toBe(true);
    expect(quarantineRequests(engine)).toBe(1);
    const [result] = (error as BudgetExceededError).toolResults;
    expect(result).toMatchObject({ id: 'q0', ok: false, error: { code: 'budget_exceeded', message: expect.stringMatching(/token budget is spent/) } });
    // The runtime's words only: nothing of the page.
    expect(JSON.stringify(result)).not.toContain('attacker');
  });
});
