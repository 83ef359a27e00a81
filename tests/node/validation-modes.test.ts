// `validation: 'auto' | 'no-eval'` on the registry, the manager and the agent: one behaviour either way.
import Ajv from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CALLS_BEFORE_COMPILING } from '../../src/validation/tool-args-check.js';
import { Agent, ChatRunner, defineTool, isAmbiError, scriptedEngine, ToolManager, ToolRegistry, type Tool, type ToolResult } from '../../src/index.js';

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number', default: 1 } }, required: ['a'], additionalProperties: false },
  idempotent: true,
  call: ({ a, b }) => a + b,
});

const calls = [
  { id: 'ok', name: 'add', arguments: { a: 2, b: 3 } },
  { id: 'default', name: 'add', arguments: '{"a":2}' },
  { id: 'bad', name: 'add', arguments: { a: 'x', b: 2, c: 3 } },
  { id: 'missing', name: 'add', arguments: {} },
];

const outcome = ({ ok, ...rest }: ToolResult) =>
  ok ? { ok, output: (rest as { output: unknown }).output } : { ok, error: (rest as { error: unknown }).error };

async function runAll(manager: ToolManager) {
  return Promise.all(calls.map(async (call) => outcome(await manager.execute(call))));
}

let compile: ReturnType<typeof vi.spyOn> | undefined;
afterEach(() => compile?.mockRestore());

describe('validation modes', () => {
  it("defaults to 'auto': the first calls are checked without ajv, which compiles the validator once the tool is busy", async () => {
    compile = vi.spyOn(Ajv.prototype, 'compile');
    const registry = new ToolRegistry().register({ ...add, parameters: structuredClone(add.parameters) });
    expect(registry.validation).toBe('auto');
    const manager = new ToolManager(registry);
    const first = await runAll(manager);
    expect(compile).not.toHaveBeenCalled();
    for (let made = calls.length; made < CALLS_BEFORE_COMPILING; made += calls.length) await runAll(manager);
    await vi.waitFor(() => expect(compile).toHaveBeenCalledTimes(1));
    expect(await runAll(manager)).toEqual(first);
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it("'no-eval' never touches ajv's compiler (nor `new Function`)", async () => {
    compile = vi.spyOn(Ajv.prototype, 'compile');
    const functionSpy = vi.spyOn(globalThis, 'Function');
    try {
      const manager = new ToolManager(new ToolRegistry({ validation: 'no-eval' }).register({ ...add, parameters: structuredClone(add.parameters) }));
      await runAll(manager);
      expect(compile).not.toHaveBeenCalled();
      expect(functionSpy).not.toHaveBeenCalled();
    } finally {
      functionSpy.mockRestore();
    }
  });

  it('gives the same results and messages in both modes', async () => {
    const auto = await runAll(new ToolManager(new ToolRegistry().register(add)));
    const noEval = await runAll(new ToolManager(new ToolRegistry({ validation: 'no-eval' }).register(add)));
    expect(noEval).toEqual(auto);
    expect(auto).toEqual([
      { ok: true, output: 5 },
      { ok: true, output: 3 },
      {
        ok: false,
        error: { code: 'invalid_arguments', message: 'Invalid arguments for "add": arguments must NOT have additional properties (\'c\'); /a must be number' },
      },
      { ok: false, error: { code: 'invalid_arguments', message: 'Invalid arguments for "add": arguments must have required property \'a\'' } },
    ]);
  });

  it("refuses a bad schema at registration in 'no-eval' mode too", () => {
    const bad = { ...add, parameters: { type: 'object', properties: {}, requird: ['a'] } } as unknown as Tool;
    const error = (() => {
      try {
        new ToolRegistry({ validation: 'no-eval' }).register(bad);
      } catch (e) {
        return e;
      }
    })();
    expect(isAmbiError(error, 'invalid_tool')).toBe(true);
    expect((error as Error).message).toBe('Tool "add": invalid parameters schema: strict mode: unknown keyword: "requird"');
  });

  it("compiles once per tool, never per call, in 'no-eval' mode", async () => {
    const registry = new ToolRegistry({ validation: 'no-eval' }).register({ ...add, parameters: structuredClone(add.parameters) });
    const validate = registry.entry('add')!.validate;
    const manager = new ToolManager(registry);
    await runAll(manager);
    expect(registry.entry('add')!.validate).toBe(validate);
  });

  it("the manager's option sets the registry's mode, for the tools registered before it too", async () => {
    const registry = new ToolRegistry().register(add);
    compile = vi.spyOn(Ajv.prototype, 'compile');
    const manager = new ToolManager(registry, { validation: 'no-eval' });
    expect(registry.validation).toBe('no-eval');
    expect(compile).not.toHaveBeenCalled();
    const late = defineTool({
      name: 'late',
      description: 'x',
      parameters: { type: 'object', properties: { n: { type: 'integer' } } },
      idempotent: true,
      call: ({ n }) => n ?? 0,
    });
    registry.register(late);
    expect(compile).not.toHaveBeenCalled();
    expect(await manager.execute({ id: 'c', name: 'late', arguments: { n: 1.5 } })).toMatchObject({
      ok: false,
      error: { message: 'Invalid arguments for "late": /n must be integer' },
    });
  });

  it('refuses an unknown mode rather than guessing', () => {
    expect(() => new ToolRegistry({ validation: 'noeval' as never })).toThrow(/validation must be 'auto' or 'no-eval'/);
    expect(() => new ToolManager(new ToolRegistry(), { validation: 'strict' as never })).toThrow(TypeError);
  });

  it('Agent.make passes the mode to its registry, and its leaves inherit it', async () => {
    const agent = await Agent.make(scriptedEngine([{ toolCalls: [{ id: 'c1', name: 'add', arguments: { a: 'x' } }] }, 'done']), { validation: 'no-eval' });
    expect(agent.registry.validation).toBe('no-eval');
    expect(agent.derive([]).registry.validation).toBe('no-eval');
    compile = vi.spyOn(Ajv.prototype, 'compile');
    agent.tool({ ...add, parameters: structuredClone(add.parameters) });
    const result = await new ChatRunner().run(agent, 'add').result;
    expect(compile).not.toHaveBeenCalled();
    expect(result.toolResults).toMatchObject([{ ok: false, error: { code: 'invalid_arguments', message: 'Invalid arguments for "add": /a must be number' } }]);
  });
});
