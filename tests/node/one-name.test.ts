// Issue 14: one name, one thing. The public ToolRegistry is the class every agent uses.
import { describe, expect, it } from 'vitest';
import { Agent, defineTool, scriptedEngine, ToolManager, ToolRegistry } from '../../src/index.js';

const add = defineTool({
  name: 'add',
  description: 'x',
  parameters: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
  idempotent: true,
  call: ({ a }) => a + 1,
});

describe('ToolRegistry', () => {
  it('is the class of an agent registry', async () => {
    const agent = await Agent.make(scriptedEngine(['hi']));
    expect(agent.registry).toBeInstanceOf(ToolRegistry);
    expect(agent.tools).toBeInstanceOf(ToolManager);
    expect(agent.tools.registry).toBe(agent.registry);
  });

  it('made by hand validates in auto mode from its first call (the compiler loads with it)', async () => {
    const manager = new ToolManager(new ToolRegistry().register(add));
    await expect(manager.execute({ id: 'c1', name: 'add', arguments: { a: 1 } })).resolves.toMatchObject({ ok: true, output: 2 });
    await expect(manager.execute({ id: 'c2', name: 'add', arguments: { a: 'one' } })).resolves.toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', message: 'Invalid arguments for "add": /a must be number' },
    });
  });
});
