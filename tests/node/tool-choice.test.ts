import { describe, expect, it, test } from 'vitest';
import { effectiveToolChoice } from '../../src/runner/tool-choice.js';
import { Agent, ChatRunner, defineTool, type Message, type ToolChoice } from '../../src/index.js';
import { call, finish, StepEngine, text } from '../support/engines.js';

describe('tool choice per turn', () => {
  const user: Message = { role: 'user', content: 'Add 2 and 3.' };
  const result: Message = { role: 'tool', toolCallId: 'c1', name: 'add', content: '{"ok":true,"output":5}' };

  test('a forced choice applies to the turn that answers the person', () => {
    expect(effectiveToolChoice('required', [user])).toBe('required');
    expect(effectiveToolChoice({ name: 'add' }, [user])).toEqual({ name: 'add' });
  });

  test('after tool results (or a runtime note) the turn is auto, so the model can answer', () => {
    expect(effectiveToolChoice('required', [user, result])).toBe('auto');
    expect(effectiveToolChoice({ name: 'add' }, [user, { role: 'user', origin: 'runtime', content: 'x' }])).toBe('auto');
  });

  test('auto and none hold on every turn; no choice means auto', () => {
    expect(effectiveToolChoice('none', [user, result])).toBe('none');
    expect(effectiveToolChoice(undefined, [user])).toBe('auto');
  });
});

describe('tool choice in a run', () => {
  const add = defineTool({
    name: 'add',
    description: 'add',
    parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    idempotent: true,
    call: ({ a, b }) => a + b,
  });

  for (const forced of ['required', { name: 'add' }] satisfies ToolChoice[]) {
    it(`sends ${JSON.stringify(forced)} on the turn that answers the person and auto after the tool results, whatever the engine`, async () => {
      const engine = new StepEngine([
        [call('c1', 'add', { a: 2, b: 3 }), finish('tool_calls')],
        [text('It is 5.'), finish()],
      ]);
      const agent = (await Agent.make(engine)).tool(add);
      const result = await new ChatRunner().run(agent, 'what is 2+3?', { toolChoice: forced, maxIterations: 3 }).result;
      expect(result.text).toBe('It is 5.');
      expect(engine.requests.map((r) => r.toolChoice)).toEqual([forced, 'auto']);
    });
  }

  it('sends no tool choice when the run sets none', async () => {
    const engine = new StepEngine([
      [call('c1', 'add', { a: 2, b: 3 }), finish('tool_calls')],
      [text('It is 5.'), finish()],
    ]);
    await new ChatRunner().run((await Agent.make(engine)).tool(add), 'go').result;
    expect(engine.requests.map((r) => r.toolChoice)).toEqual([undefined, undefined]);
  });
});
