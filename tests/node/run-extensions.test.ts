// The run's extension point, as an app uses it: an extension of its own sees each hook in order,
// and speaks in a call's policy and result stages like the built-in ones.
import { expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, type RunExtension, scriptedEngine } from '../../src/index.js';
import type { ExtensionLoader } from '../../src/extend/index.js';

// Not idempotent: it waits for the whole reply (an idempotent call may start while the reply streams, before afterTurn).
const echo = defineTool({ name: 'echo', description: 'x', parameters: { type: 'object' }, idempotent: false, call: () => 'echoed' });
const replies = [{ toolCalls: [{ id: 'c1', name: 'echo', arguments: {} }] }, 'Done.'];

function loader(make: () => RunExtension): ExtensionLoader {
  return { name: 'test', wanted: () => true, load: async () => make };
}

it('calls each hook of a run in order, once per turn, call and event', async () => {
  const seen: string[] = [];
  const extension = loader(() => ({
    name: 'trace',
    open: () => void seen.push('open'),
    beforeTurn: (request) => void seen.push(`beforeTurn ${request.iteration}`),
    afterTurn: (turn) => void seen.push(`afterTurn ${turn.calls.length} ${turn.text}`),
    beforeCall: (call) => void seen.push(`beforeCall ${call.id}`),
    afterCall: (call, result) => (seen.push(`afterCall ${call.id} ${result.ok}`), result),
    result: (result) => (seen.push(`result ${result.text}`), result),
    end: (outcome) => void seen.push(`end ${outcome.ok}`),
  }));
  const agent = (await Agent.make(scriptedEngine(replies), { extensions: [extension] })).tool(echo);
  await new ChatRunner().run(agent, 'go').result;
  expect(seen).toEqual([
    'open',
    'beforeTurn 1',
    'afterTurn 1 ',
    'beforeCall c1',
    'afterCall c1 true',
    'beforeTurn 2',
    'afterTurn 0 Done.',
    'result Done.',
    'end true',
  ]);
});

it('refuses a call from beforeCall, changes its result in afterCall, and fails the run from beforeTurn', async () => {
  const refusing = loader(() => ({ name: 'refuse', beforeCall: () => ({ kind: 'refuse', code: 'not_here', message: 'not in this app' }) }));
  const agent = (await Agent.make(scriptedEngine(replies), { extensions: [refusing] })).tool(echo);
  const result = await new ChatRunner().run(agent, 'go').result;
  expect(result.toolResults).toMatchObject([{ id: 'c1', ok: false, attempts: 0, error: { code: 'not_here', message: 'not in this app' } }]);

  const rewriting = loader(() => ({ name: 'rewrite', afterCall: (_call, r) => (r.ok ? { ...r, output: 'rewritten' } : r) }));
  const second = (await Agent.make(scriptedEngine(replies), { extensions: [rewriting] })).tool(echo);
  expect((await new ChatRunner().run(second, 'go').result).toolResults).toMatchObject([{ ok: true, output: 'rewritten' }]);

  const stopping = loader(() => ({
    name: 'stop',
    beforeTurn: (request) => {
      if (request.iteration > 1) throw Object.assign(new Error('one request only'), { code: 'budget_exceeded' });
    },
  }));
  const third = (await Agent.make(scriptedEngine(replies), { extensions: [stopping] })).tool(echo);
  await expect(new ChatRunner().run(third, 'go').result).rejects.toThrow('one request only');
});

it('an afterCall that throws is a warning, and the result stands', async () => {
  const throwing = loader(() => ({
    name: 'broken',
    afterCall: () => {
      throw new Error('oops');
    },
  }));
  const agent = (await Agent.make(scriptedEngine(replies), { extensions: [throwing] })).tool(echo);
  const run = new ChatRunner().run(agent, 'go');
  const warnings: string[] = [];
  for await (const event of run.events) if (event.type === 'warning') warnings.push(event.code);
  expect((await run.result).toolResults).toMatchObject([{ ok: true, output: 'echoed' }]);
  expect(warnings).toEqual(['extension_failed']);
});
