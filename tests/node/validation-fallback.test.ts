// 'auto' in a realm that refuses eval (as a CSP without 'unsafe-eval' does): the first
// compile (once a tool is busy) meets an EvalError, the realm remembers, and every validator from then on is the
// no-eval one, with the same messages. Its own file: the realm's memory lasts for the file.
import Ajv from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { defineTool, ToolManager, ToolRegistry } from '../../src/index.js';
import { CALLS_BEFORE_COMPILING } from '../../src/validation/tool-args-check.js';
import { evalRefusedInThisRealm } from '../../src/validation/validate-args.js';

const tool = (name: string) =>
  defineTool({
    name,
    description: 'Add',
    parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    idempotent: true,
    call: ({ a, b }) => a + b,
  });

/** Make this realm's `Function` constructor refuse code, as a strict CSP does, until the returned function is called. */
function refuseEval(): () => void {
  const original = globalThis.Function;
  globalThis.Function = function refuse() {
    throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source of script");
  } as unknown as FunctionConstructor;
  return () => {
    globalThis.Function = original;
  };
}

/** Run `action` in a realm that refuses eval. */
function withoutEval<T>(action: () => T): T {
  const restore = refuseEval();
  try {
    return action();
  } finally {
    restore();
  }
}

describe("'auto' where eval is refused", () => {
  it('falls back to the no-eval validator, with the same messages, and remembers', async () => {
    const expected = await new ToolManager(new ToolRegistry().register(tool('add'))).execute({ id: 'c', name: 'add', arguments: { a: 1, b: 'x' } });
    expect(evalRefusedInThisRealm()).toBe(false);

    const compile = vi.spyOn(Ajv.prototype, 'compile');
    const manager = new ToolManager(new ToolRegistry().register(tool('first')).register(tool('second')));
    const restore = refuseEval();
    try {
      // The first calls are checked without eval; the busy tool's compile meets the EvalError.
      for (let i = 0; i < CALLS_BEFORE_COMPILING; i++) {
        expect(await manager.execute({ id: `c${i}`, name: 'first', arguments: { a: i, b: 2 } })).toMatchObject({ ok: true, output: i + 2 });
      }
      await vi.waitFor(() => expect(evalRefusedInThisRealm()).toBe(true));
      expect(compile).toHaveBeenCalledTimes(1);
      for (let i = 0; i < CALLS_BEFORE_COMPILING + 1; i++) await manager.execute({ id: `d${i}`, name: 'second', arguments: { a: i, b: 2 } });
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(compile).toHaveBeenCalledTimes(1); // ajv is not tried again in this realm
    } finally {
      restore();
      compile.mockRestore();
    }

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
    expect(() => withoutEval(() => new ToolRegistry().register(bad))).toThrow(
      /invalid parameters schema: schema is invalid: \/properties\/a\/type is "numbr": "numbr" is not a JSON Schema type/,
    );
  });
});
