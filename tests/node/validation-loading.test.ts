// ajv's compiler loads only where it validates: in `auto` mode once a tool is busy (with
// `import()`), never in `no-eval` mode. Its own file, in this order: ajv, once loaded, stays loaded for
// the file, and nothing here builds the public ToolRegistry (which brings ajv statically).
import Ajv from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agent, defineTool, scriptedEngine } from '../../src/index.js';
import { CALLS_BEFORE_COMPILING } from '../../src/validation/tool-args-check.js';

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

  it("in 'auto' mode nothing waits for ajv: Agent.make does not load it, and a tool's first calls are checked without it", async () => {
    compile = vi.spyOn(Ajv.prototype, 'compile');
    const agent = (await Agent.make(scriptedEngine(['done']))).tool(tool('add'));
    expect(await agent.tools.execute({ id: 'c', name: 'add', arguments: '{"a":2}' })).toMatchObject({ ok: true, output: 2 });
    expect(await agent.tools.execute({ id: 'c', name: 'add', arguments: '{"a":"x"}' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', message: 'Invalid arguments for "add": /a must be number' },
    });
    expect(compile).not.toHaveBeenCalled();
    // Busy, the tool gets ajv's compiled validator: ajv loads (once per realm) and compiles in the background.
    for (let i = 2; i < CALLS_BEFORE_COMPILING; i++) await agent.tools.execute({ id: `c${i}`, name: 'add', arguments: { a: i } });
    await vi.waitFor(() => expect(compile).toHaveBeenCalledTimes(1));
    expect(await agent.tools.execute({ id: 'c', name: 'add', arguments: '{"a":"x"}' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_arguments', message: 'Invalid arguments for "add": /a must be number' },
    });
  });
});
