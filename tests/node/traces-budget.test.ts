// A token budget: once a run's tokens (its leaves' included) pass `maxTokens`, no further model
// request is made and `result` rejects with `budget_exceeded`; nothing the run did is lost.
import { describe, expect, it } from 'vitest';
import {
  Agent,
  BudgetExceededError,
  ChatRunner,
  defineTool,
  isAmbiError,
  MemorySnapshotStore,
  scriptedEngine,
  type Engine,
  type ScriptedReply,
} from '../../src/index.js';
import type { EngineRequest } from '../../src/extend/index.js';
import { createEngine } from '../../src/engines/create-engine.js';
import { collect } from '../support/run-events.js';

const counts = (promptTokens: number, completionTokens: number) => ({ promptTokens, completionTokens, totalTokens: promptTokens + completionTokens });
const empty = { type: 'object', properties: {} } as const;

/** A scripted engine that also counts the requests made to it. */
function countingEngine(replies: ScriptedReply[]): Engine & { requests: EngineRequest[] } {
  const inner = createEngine(scriptedEngine(replies));
  const requests: EngineRequest[] = [];
  return {
    nativeTools: true,
    requests,
    stream(request) {
      requests.push(request);
      return inner.stream(request);
    },
  };
}

describe('maxTokens', () => {
  it('stops before the request that would go past the budget, keeping every result and the note in the conversation', async () => {
    const written: string[] = [];
    const addNote = defineTool({
      name: 'add_note',
      description: 'x',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      idempotent: false,
      call: ({ text }) => {
        written.push(text);
        return `saved ${text}`;
      },
    });
    const engine = countingEngine([
      { toolCalls: [{ name: 'add_note', arguments: { text: 'one' } }], usage: counts(400, 100) },
      { toolCalls: [{ name: 'add_note', arguments: { text: 'two' } }], usage: counts(600, 100) }, // 1200 in all: past 1000
      { text: 'Never asked for.', usage: counts(1, 1) },
    ]);
    const agent = (await Agent.make(engine, { preamble: 'Be brief.' })).tool(addNote);
    const run = new ChatRunner().run(agent, 'write two notes', { conversation: 'c', maxTokens: 1000 });
    const events = await collect(run);
    const error = await run.result.catch((e: unknown) => e);

    expect(isAmbiError(error, 'budget_exceeded')).toBe(true);
    expect(error).toBeInstanceOf(BudgetExceededError);
    expect(error).toMatchObject({ maxTokens: 1000, usedTokens: 1200 });
    expect((error as BudgetExceededError).toolResults.map((r) => r.ok && r.output)).toEqual(['saved one', 'saved two']);
    // The third request was never made; both effects happened once.
    expect(engine.requests).toHaveLength(2);
    expect(written).toEqual(['one', 'two']);
    expect(events.at(-1)).toMatchObject({ type: 'run_failed', error: { code: 'budget_exceeded', details: { maxTokens: 1000, usedTokens: 1200 } } });
    // Nothing lost: both batches of results stay, then a note saying where and why the run stopped.
    const stored = await agent.conversations.load('c');
    expect(stored.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'user']);
    expect(stored.at(-1)).toMatchObject({ role: 'user', origin: 'runtime' });
    expect(stored.at(-1)!.content).toContain('token budget of 1000 (maxTokens)');
    // The next run goes on from there without repeating the calls.
    const next = countingEngine([{ text: 'Both notes are saved.' }]);
    const again = (await Agent.make(next, { conversations: agent.conversations })).tool(addNote);
    expect((await new ChatRunner().run(again, 'done?', { conversation: 'c' }).result).text).toBe('Both notes are saved.');
    expect(written).toEqual(['one', 'two']);
  });

  it('rolls the conversation back when nothing of the run can have had an effect, as max_iterations does', async () => {
    const look = defineTool({ name: 'look', description: 'x', parameters: empty, readOnly: true, call: () => 'seen' });
    const engine = countingEngine([{ toolCalls: [{ name: 'look', arguments: {} }], usage: counts(90, 20) }]);
    const agent = (await Agent.make(engine)).tool(look);
    const error = await new ChatRunner().run(agent, 'look', { conversation: 'c', maxTokens: 100 }).result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'budget_exceeded')).toBe(true);
    expect(await agent.conversations.load('c')).toEqual([]);
  });

  it('counts a leaf’s tokens against its parent’s budget, and stops the leaf too', async () => {
    const look = defineTool({ name: 'look', description: 'x', parameters: empty, readOnly: true, call: () => 'seen' });
    const engine = countingEngine([
      { toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'Dig.' } }], usage: counts(50, 10) },
      { toolCalls: [{ name: 'look', arguments: {} }], usage: counts(300, 10) }, // the leaf's first turn: 370 in all
      { text: 'Never asked for.' },
    ]);
    const agent = (await Agent.make(engine)).tool(look).leaf({ store: new MemorySnapshotStore() });
    const run = new ChatRunner().run(agent, 'go', { maxTokens: 200 });
    const events = await collect(run);
    const error = await run.result.catch((e: unknown) => e);
    expect(isAmbiError(error, 'budget_exceeded')).toBe(true);
    expect(engine.requests).toHaveLength(2);
    // The leaf stopped at its next request; its spawn_leaf call says why; the parent then stopped.
    const leafFailed = events.filter((e) => e.type === 'run_failed' && e.leafId !== undefined);
    expect(leafFailed.map((e) => e.type === 'run_failed' && e.error.code)).toEqual(['budget_exceeded']);
    const spawn = (error as BudgetExceededError).toolResults[0]!;
    expect(spawn).toMatchObject({ name: 'spawn_leaf', ok: false, error: { code: 'budget_exceeded' } });
  });

  it('refuses a budget that is not a whole number >= 1 before anything starts', async () => {
    const agent = await Agent.make(scriptedEngine(['Hi.']));
    for (const maxTokens of [0, -5, 1.5, Number.NaN]) {
      expect(() => new ChatRunner().run(agent, 'hi', { maxTokens })).toThrow(expect.objectContaining({ code: 'invalid_option' }));
    }
  });
});
