// ajv's compiler loads only where it validates: `Agent.make` loads it (with `import()`) for
// `auto`, never for `no-eval`. Its own file, in this order: ajv, once loaded, stays loaded for
// the file, and nothing here builds the public ToolRegistry (which brings ajv statically).
import Ajv from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agent, defineTool, scriptedEngine } from '../../src/index.js';

const tool = (name: string) =>
  defineTool({
    name,
    description: 'Add',
    parameters: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'], additionalProperties: false },
    idempotent: true,
    call: ({ a }) => a,
  });

let compile: ReturnType<typeof vi.spyOn> | undefined;
afterEach(() => compile?.mockRestore());

describe('loading ajv', () => {
  it("an agent made in 'no-eval' mode never gets ajv's compiler, even when its registry is switched to 'auto' later", async () => {
    compile = vi.spyOn(Ajv.prototype, 'compile');
    const agent = (await Agent.make(scriptedEngine(['done']), { validation: 'no-eval' })).tool(tool('first'));
    agent.registry.useValidation('auto');
    agent.tool(tool('second'));
    expect(compile).not.toHaveBeenCalled();
    // Without ajv, 'auto' builds the no-eval validator: the same decisions and messages.
    const result = await agent.tools.execute({ id: 'c', name: 'second', arguments: { a: 'x' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_arguments', message: 'Invalid arguments for "second": /a must be number' } });
  });

  it("Agent.make in 'auto' mode loads ajv before it resolves: the first call compiles with ajv, synchronously", async () => {
    compile = vi.spyOn(Ajv.prototype, 'compile');
    const agent = (await Agent.make(scriptedEngine(['done']))).tool(tool('add'));
    expect(compile).not.toHaveBeenCalled(); // validators are compiled when first needed
    const result = agent.tools.execute({ id: 'c', name: 'add', arguments: '{"a":2}' });
    expect(compile).toHaveBeenCalledTimes(1);
    expect(await result).toMatchObject({ ok: true, output: 2 });
  });
});
