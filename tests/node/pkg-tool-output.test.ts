// Issue 15: a tool's output must be a JSON value; a Map (anywhere in it) fails to compile rather than as `crashed` at run time.
import { describe, expect, it } from 'vitest';
import { defineTool } from '../../src/tools/define-tool.js';
import { ToolManager } from '../../src/call/tool-manager.js';
import { ToolRegistry } from '../../src/tools/registry.js';

const base = { description: 'x', parameters: { type: 'object', properties: {} }, idempotent: true } as const;
interface Note {
  title: string;
  tags: string[];
  when: Date;
}

describe('defineTool: the output type', () => {
  it('accepts JSON values, an interface of them, a Date, nothing, unknown, and a promise of any of these', async () => {
    const note: Note = { title: 't', tags: ['a'], when: new Date(0) };
    const tools = [
      defineTool({ ...base, name: 'json', call: () => ({ a: [1, 'b', null, { c: true }] }) }),
      defineTool({ ...base, name: 'note', call: () => note }),
      defineTool({ ...base, name: 'nothing', call: () => {} }),
      defineTool({ ...base, name: 'unknown', call: () => JSON.parse('{"x":1}') as unknown }),
      defineTool({ ...base, name: 'later', call: async () => [note] }),
      defineTool({ ...base, name: 'boxed', call: () => ({ s: new String('x') }) }),
    ];
    const manager = new ToolManager(new ToolRegistry());
    for (const tool of tools) manager.registry.register(tool);
    const outputs = await Promise.all(tools.map(async ({ name }) => (await manager.execute({ id: name, name, arguments: {} })).ok));
    expect(outputs).toEqual(tools.map(() => true));
  });

  it('refuses a Map, a Set, a function, a bigint, and any of them nested, at compile time: each would fail as crashed', async () => {
    const tools = [
      // @ts-expect-error a Map does not stringify
      defineTool({ ...base, name: 'map', call: () => new Map([['a', 1]]) }),
      // @ts-expect-error a Set does not stringify
      defineTool({ ...base, name: 'set', call: () => new Set([1]) }),
      // @ts-expect-error a bigint throws in JSON.stringify
      defineTool({ ...base, name: 'big', call: () => 1n }),
      // @ts-expect-error nested in an object
      defineTool({ ...base, name: 'nested', call: () => ({ ok: true, index: new Map<string, number>() }) }),
      // @ts-expect-error nested in a promise of an array
      defineTool({ ...base, name: 'deep', call: async () => [{ seen: new Set<string>() }] }),
    ];
    // @ts-expect-error a function is not a JSON value either
    defineTool({ ...base, name: 'fn', call: () => () => 1 });
    const manager = new ToolManager(new ToolRegistry());
    for (const tool of tools) manager.registry.register(tool);
    const codes = await Promise.all(
      tools.map(async ({ name }) => {
        const result = await manager.execute({ id: name, name, arguments: {} });
        return result.ok ? 'ok' : result.error.code;
      }),
    );
    expect(codes).toEqual(tools.map(() => 'crashed'));
  });
});
