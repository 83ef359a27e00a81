// What a run cost: RunResult.usage summed over every model request of the run (its leaves', the
// requests a typed answer asked again, and extra requests that report a `usage` event), the
// server's counts where it gives sane ones, an estimate marked `estimated` where it does not.
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, MemorySnapshotStore, scriptedEngine, type RunEvent } from '../../src/index.js';
import { useSseServer } from './engine-test-helpers.js';
import { collect } from '../support/run-events.js';

const counts = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens, totalTokens: promptTokens + completionTokens });
const empty = { type: 'object', properties: {} } as const;

/** An SSE body answering `text` with these usage fields (the server's words, as given). */
function sseAnswer(text: string, usage: unknown): string[] {
  const chunk = (body: unknown) => `data: ${JSON.stringify(body)}\n\n`;
  return [
    chunk({ choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }),
    chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
    chunk({ choices: [], usage }),
    'data: [DONE]\n\n',
  ];
}

describe('RunResult.usage', () => {
  it('sums every request of the run, its leaf’s included, and counts the requests', async () => {
    const engine = scriptedEngine([
      { toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'Sum it up.' } }], usage: counts(100, 10) },
      { text: 'Leaf answer.', usage: counts(40, 4) }, // the leaf's only turn
      { text: 'All done.', usage: counts(160, 6) },
    ]);
    const agent = (await Agent.make(engine)).leaf({ store: new MemorySnapshotStore() });
    const run = new ChatRunner().run(agent, 'go');
    const events = await collect(run);
    const result = await run.result;
    expect(result.usage).toEqual({ promptTokens: 300, completionTokens: 20, totalTokens: 320, requests: 3 });
    // One usage event per request, the leaf's tagged with its id; the leaf's own result counts only its request.
    const usageEvents = events.filter((e): e is Extract<RunEvent, { type: 'usage' }> => e.type === 'usage');
    expect(usageEvents.map((e) => [e.usage.totalTokens, e.leafId !== undefined])).toEqual([
      [110, false],
      [44, true],
      [166, false],
    ]);
    const leafFinished = events.find((e) => e.type === 'run_finished' && e.leafId !== undefined);
    expect(leafFinished?.type === 'run_finished' && leafFinished.result.usage).toEqual({ ...counts(40, 4), requests: 1 });
  });

  it('counts each answer a typed output asked again for, and extra requests reported as usage events', async () => {
    // A tool that makes a model request of its own (as quarantine does) reports it with a usage event.
    const summarise = defineTool({
      name: 'summarise',
      description: 'x',
      parameters: empty,
      readOnly: true,
      call: (_args, ctx) => {
        ctx.run?.emit({ type: 'usage', usage: counts(7, 3) });
        return 'short';
      },
    });
    const engine = scriptedEngine([
      { toolCalls: [{ name: 'summarise', arguments: {} }], usage: counts(10, 1) },
      { text: 'not json', usage: counts(20, 2) }, // refused by the output schema: asked again
      { text: '{"ok":true}', usage: counts(30, 3) },
    ]);
    const agent = (await Agent.make(engine)).tool(summarise);
    const result = await new ChatRunner().run(agent, 'go', { output: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } }).result;
    expect(result.output).toEqual({ ok: true });
    expect(result.usage).toEqual({ promptTokens: 67, completionTokens: 9, totalTokens: 76, requests: 4 });
  });

  it('keeps a sum of huge but whole counts at the largest exact number instead of overflowing', async () => {
    const huge = counts(Number.MAX_SAFE_INTEGER - 1, 0);
    const echo = defineTool({ name: 'echo', description: 'x', parameters: empty, readOnly: true, call: () => 'e' });
    const engine = scriptedEngine([
      { toolCalls: [{ name: 'echo', arguments: {} }], usage: huge },
      { text: 'Done.', usage: huge },
    ]);
    const result = await new ChatRunner().run((await Agent.make(engine)).tool(echo), 'go').result;
    expect(result.usage).toEqual({ promptTokens: Number.MAX_SAFE_INTEGER, completionTokens: 0, totalTokens: Number.MAX_SAFE_INTEGER, requests: 2 });
  });

  it('estimates a request the server gives no counts for, and says so', async () => {
    const agent = await Agent.make(scriptedEngine([{ text: 'x'.repeat(40) }]), { preamble: 'p'.repeat(400) });
    const result = await new ChatRunner().run(agent, 'hi').result;
    // Characters / 4: the 402-character request (preamble and question) and the 40-character answer.
    expect(result.usage).toEqual({ promptTokens: 101, completionTokens: 10, totalTokens: 111, requests: 1, estimated: true });
  });

  describe('against an OpenAI-compatible server', () => {
    const sse = useSseServer();

    it('counts a request retried after a 503 once, with the counts of the answer that came', async () => {
      const engine = await sse.engineFor((_request, n) =>
        n === 0 ? { status: 503, pieces: ['busy'] } : { pieces: sseAnswer('Hi.', { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 }) },
      );
      const result = await new ChatRunner().run(await Agent.make(engine), 'hi').result;
      expect(sse.server.requests).toHaveLength(2);
      expect(result.usage).toEqual({ promptTokens: 12, completionTokens: 3, totalTokens: 15, requests: 1 });
    });

    it.each([
      ['negative counts', { prompt_tokens: -500, completion_tokens: 3, total_tokens: -497 }],
      ['fractions', { prompt_tokens: 1.5, completion_tokens: 3, total_tokens: 4.5 }],
      ['counts past what a number holds exactly', { prompt_tokens: 1e300, completion_tokens: 3, total_tokens: 1e300 }],
    ])('estimates instead of trusting %s, with a warning', async (_what, usage) => {
      const engine = await sse.engineFor(() => ({ pieces: sseAnswer('Hi there.', usage) }));
      const run = new ChatRunner().run(await Agent.make(engine), 'hello');
      const events = await collect(run);
      const result = await run.result;
      expect(result.usage).toMatchObject({ requests: 1, estimated: true });
      expect(result.usage!.promptTokens).toBeGreaterThan(0);
      expect(result.usage!.totalTokens).toBe(result.usage!.promptTokens + result.usage!.completionTokens);
      expect(events.find((e) => e.type === 'warning')).toMatchObject({ type: 'warning', code: 'invalid_usage' });
    });

    it('raises a total below prompt plus completion to their sum, and keeps a total above it (reasoning tokens)', async () => {
      const engine = await sse.engineFor((_request, n) =>
        n === 0
          ? { pieces: sseAnswer('A.', { prompt_tokens: 10, completion_tokens: 5, total_tokens: 1 }) }
          : { pieces: sseAnswer('B.', { prompt_tokens: 10, completion_tokens: 5, total_tokens: 40 }) },
      );
      const agent = await Agent.make(engine);
      const low = await new ChatRunner().run(agent, 'one').result;
      const high = await new ChatRunner().run(agent, 'two').result;
      expect(low.usage).toEqual({ promptTokens: 10, completionTokens: 5, totalTokens: 15, requests: 1 });
      expect(high.usage).toEqual({ promptTokens: 10, completionTokens: 5, totalTokens: 40, requests: 1 });
    });
  });
});
