// 'auto' in a realm that refuses eval (as a CSP without 'unsafe-eval' does): the first
// compile meets an EvalError, the realm remembers, and every validator from then on is the
// no-eval one, with the same messages. Its own file: the realm's memory lasts for the file.
import Ajv from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { defineTool, ToolManager, ToolRegistry } from '../../src/index.js';
import { evalRefusedInThisRealm } from '../../src/validation/validate-args.js';

const tool = (name: string) =>
  defineTool({
    name,
    description: 'Add',
    parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    idempotent: true,
    call: ({ a, b }) => a + b,
  });

/** Run `action` in a realm whose `Function` constructor refuses code, as a strict CSP does. */
function withoutEval<T>(action: () => T): T {
  const original = globalThis.Function;
  globalThis.Function = function refuse() {
    throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source of script");
  } as unknown as FunctionConstructor;
  try {
    return action();
  } finally {
    globalThis.Function = original;
  }
}

describe("'auto' where eval is refused", () => {
  it('falls back to the no-eval validator, with the same messages, and remembers', async () => {
    const expected = await new ToolManager(new ToolRegistry().register(tool('add'))).execute({ id: 'c', name: 'add', arguments: { a: 1, b: 'x' } });
    expect(evalRefusedInThisRealm()).toBe(false);

    const compile = vi.spyOn(Ajv.prototype, 'compile');
    const manager = new ToolManager(new ToolRegistry().register(tool('first')).register(tool('second')));
    expect(compile).not.toHaveBeenCalled(); // validators are compiled when a call first needs them
    // The validator is compiled synchronously, inside `execute`.
    const first = withoutEval(() => manager.execute({ id: 'c', name: 'first', arguments: { a: 1, b: 2 } }));
    expect(evalRefusedInThisRealm()).toBe(true);
    expect(compile).toHaveBeenCalledTimes(1);
    const second = withoutEval(() => manager.execute({ id: 'c', name: 'second', arguments: { a: 1, b: 2 } }));
    expect(compile).toHaveBeenCalledTimes(1); // ajv is not tried again in this realm
    compile.mockRestore();
    expect(await first).toMatchObject({ ok: true, output: 3 });
    expect(await second).toMatchObject({ ok: true, output: 3 });

    for (const name of ['first', 'second']) {
      const result = await manager.execute({ id: 'c', name, arguments: { a: 1, b: 'x' } });
      expect(result).toMatchObject({
        ok: false,
        error: { code: 'invalid_arguments', message: (expected as { error: { message: string } }).error.message.replace('"add"', `"${name}"`) },
      });
      expect(await manager.execute({ id: 'c', name, arguments: { a: 1, b: 2 } })).toMatchObject({ ok: true, output: 3 });
    }
  });

  it('still refuses a bad schema, as a bad schema', () => {
    const bad = { ...tool('bad'), parameters: { type: 'object', properties: { a: { type: 'numbr' } } } as never };
    expect(() => withoutEval(() => new ToolRegistry().register(bad))).toThrow(/invalid parameters schema: schema is invalid: data\/properties\/a\/type/);
  });
});
