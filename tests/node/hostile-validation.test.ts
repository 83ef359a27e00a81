// Issue 13, validation: a hostile model's arguments and a hostile server's schemas.
// `ToolManager.execute` never rejects; deep arguments are refused before validation;
// validators read and fill only own data properties; the mode applies whenever it is set.
import Ajv from 'ajv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CALLS_BEFORE_COMPILING } from '../../src/validation/tool-args-check.js';
import {
  defineTool,
  isAmbiError,
  ToolManager,
  ToolRegistry,
  type ParametersSchema,
  type StandardSchemaV1,
  type Tool,
  type ToolResult,
} from '../../src/index.js';

const MODES = ['auto', 'no-eval'] as const;

/** A tool whose parameters are `schema` (as a server would send it: parsed JSON) and that returns the args it got. */
const echo = (schema: object, seen: unknown[] = []): Tool =>
  defineTool({ name: 'echo', description: 'x', parameters: schema as ParametersSchema, idempotent: true, call: (args) => (seen.push(args), 'ran') });

const managerFor = (validation: (typeof MODES)[number], tool: Tool) => new ToolManager(new ToolRegistry({ validation }).register(tool));

const failure = (result: ToolResult) => (result.ok ? undefined : result.error);

/** `{"child": {"child": ...}}`, `levels` objects deep, built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { child: value };
  return value;
}

const RECURSIVE = JSON.parse('{"type":"object","properties":{"child":{"$ref":"#"}},"additionalProperties":false}');
const TOO_DEEP = 'Invalid arguments for "echo": arguments must NOT be nested more than 64 levels deep';

let spies: Array<{ mockRestore(): void }> = [];
afterEach(() => {
  spies.forEach((spy) => spy.mockRestore());
  spies = [];
  delete (Object.prototype as Record<string, unknown>).polluted;
});

describe('deep arguments', () => {
  it.each(MODES)('accepts arguments 64 levels deep under a recursive schema (%s)', async (validation) => {
    const result = await managerFor(validation, echo(RECURSIVE)).execute({ id: 'c', name: 'echo', arguments: nested(64) });
    expect(result).toMatchObject({ ok: true, output: 'ran' });
  });

  it.each(MODES)('refuses arguments 65 levels deep as invalid_arguments, before validation (%s)', async (validation) => {
    const seen: unknown[] = [];
    const result = await managerFor(validation, echo(RECURSIVE, seen)).execute({ id: 'c', name: 'echo', arguments: nested(65) });
    expect(failure(result)).toEqual({ code: 'invalid_arguments', message: TOO_DEEP });
    expect(result.attempts).toBe(0);
    expect(seen).toEqual([]);
  });

  it.each(MODES)('refuses a ~3 KB argument 300 levels deep, sent as JSON text, without rejecting (%s)', async (validation) => {
    const text = JSON.stringify(nested(300));
    expect(text.length).toBeLessThan(3_500);
    const result = await managerFor(validation, echo(RECURSIVE)).execute({ id: 'c', name: 'echo', arguments: text });
    expect(failure(result)).toEqual({ code: 'invalid_arguments', message: TOO_DEEP });
  });

  it.each(MODES)('says "too deep", not "must be plain JSON", for 20,000 levels (%s)', async (validation) => {
    const result = await managerFor(validation, echo(RECURSIVE)).execute({ id: 'c', name: 'echo', arguments: nested(20_000) });
    expect(failure(result)).toEqual({ code: 'invalid_arguments', message: TOO_DEEP });
  });

  it.each(MODES)(
    'checks 1,000,000 levels without overflowing the stack, as an object and as JSON text (%s)',
    async (validation) => {
      const manager = managerFor(validation, echo(RECURSIVE));
      const deep = nested(1_000_000);
      expect(failure(await manager.execute({ id: 'c', name: 'echo', arguments: deep }))).toEqual({ code: 'invalid_arguments', message: TOO_DEEP });
      const text = `${'{"child":'.repeat(999_999)}{}${'}'.repeat(999_999)}`;
      expect(failure(await manager.execute({ id: 'c', name: 'echo', arguments: text }))).toEqual({ code: 'invalid_arguments', message: TOO_DEEP });
      // JSON.parse of those 10 MB alone takes most of a second; more on a loaded machine.
    },
    30_000,
  );

  it.each(MODES)('counts arrays as levels too (%s)', async (validation) => {
    // 63 arrays in the top-level object: 64 levels.
    let list: unknown = [];
    for (let i = 1; i < 63; i++) list = [list];
    const tool = echo({ type: 'object', properties: { list: { type: 'array' } } });
    const manager = managerFor(validation, tool);
    expect(await manager.execute({ id: 'c', name: 'echo', arguments: { list } })).toMatchObject({ ok: true });
    expect(failure(await manager.execute({ id: 'c', name: 'echo', arguments: { list: [list] } }))).toEqual({ code: 'invalid_arguments', message: TOO_DEEP });
  });

  it.each(MODES)('refuses a deep argument for a tool with a Standard Schema too (%s)', async (validation) => {
    const tool = defineTool({
      name: 'echo',
      description: 'x',
      parameters: { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as StandardSchemaV1,
      jsonSchema: { type: 'object' },
      idempotent: true,
      call: () => 'ran',
    });
    const result = await managerFor(validation, tool).execute({ id: 'c', name: 'echo', arguments: nested(65) });
    expect(failure(result)).toEqual({ code: 'invalid_arguments', message: TOO_DEEP });
  });
});

describe('execute never rejects, whatever the arguments', () => {
  it.each(MODES)('arguments whose properties throw when read become invalid_arguments (%s)', async (validation) => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('no keys for you');
        },
      },
    );
    const trap = Object.defineProperty({}, 'a', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    const manager = managerFor(validation, echo({ type: 'object', properties: { a: { type: 'number' } } }));
    for (const args of [hostile, trap, { nested: trap }]) {
      const result = await manager.execute({ id: 'c', name: 'echo', arguments: args });
      expect(result).toMatchObject({ ok: false, attempts: 0, error: { code: 'invalid_arguments' } });
    }
  });
});

describe('own data properties only', () => {
  // As a server sends it: parsed from JSON, so "__proto__" is an own key of `properties`.
  const POLLUTING = '{"type":"object","properties":{"__proto__":{"type":"object","properties":{"polluted":{"type":"number","default":1}}}}}';

  it.each(MODES)('never fills a default through "__proto__" into Object.prototype (%s)', async (validation) => {
    const seen: unknown[] = [];
    const manager = managerFor(validation, echo(JSON.parse(POLLUTING), seen));
    expect(await manager.execute({ id: 'c', name: 'echo', arguments: {} })).toMatchObject({ ok: true });
    expect(await manager.execute({ id: 'c', name: 'echo', arguments: '{}' })).toMatchObject({ ok: true });
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    expect(seen.map((args) => JSON.stringify(args))).toEqual(['{}', '{}']);
  });

  it.each(MODES)('fills a default into an own "__proto__" key the model sent, which stays a key (%s)', async (validation) => {
    const seen: unknown[] = [];
    const manager = managerFor(validation, echo(JSON.parse(POLLUTING), seen));
    expect(await manager.execute({ id: 'c', name: 'echo', arguments: '{"__proto__":{}}' })).toMatchObject({ ok: true });
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    expect(JSON.stringify(seen[0])).toBe('{"__proto__":{"polluted":1}}');
    expect(Object.getPrototypeOf(seen[0])).toBe(Object.prototype);
  });

  it.each(MODES)('never fills through "constructor" or "prototype" (%s)', async (validation) => {
    const schema =
      '{"type":"object","properties":{"constructor":{"type":"object","properties":{"prototype":{"type":"object","properties":{"polluted":{"type":"number","default":1}}}}}}}';
    const seen: unknown[] = [];
    const manager = managerFor(validation, echo(JSON.parse(schema), seen));
    expect(await manager.execute({ id: 'c', name: 'echo', arguments: {} })).toMatchObject({ ok: true });
    expect(await manager.execute({ id: 'c', name: 'echo', arguments: { constructor: { prototype: {} } } })).toMatchObject({ ok: true });
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    expect(Object.hasOwn(Object, 'polluted')).toBe(false);
    expect(seen.map((args) => JSON.stringify(args))).toEqual(['{}', '{"constructor":{"prototype":{"polluted":1}}}']);
  });

  it.each(MODES)("required: ['toString'] fails on {} (%s)", async (validation) => {
    const manager = managerFor(validation, echo({ type: 'object', required: ['toString', 'valueOf', '__proto__'] }));
    expect(failure(await manager.execute({ id: 'c', name: 'echo', arguments: {} }))).toEqual({
      code: 'invalid_arguments',
      message: `Invalid arguments for "echo": arguments must have required property 'toString'; arguments must have required property 'valueOf'; arguments must have required property '__proto__'`,
    });
    expect(await manager.execute({ id: 'c', name: 'echo', arguments: '{"toString":1,"valueOf":2,"__proto__":3}' })).toMatchObject({ ok: true });
  });

  it.each(MODES)('a property named like a member of Object.prototype is absent until the model sends it (%s)', async (validation) => {
    const manager = managerFor(validation, echo({ type: 'object', properties: { valueOf: { type: 'string' }, hasOwnProperty: { type: 'number' } } }));
    expect(await manager.execute({ id: 'c', name: 'echo', arguments: {} })).toMatchObject({ ok: true });
    expect(failure(await manager.execute({ id: 'c', name: 'echo', arguments: { valueOf: 1 } }))).toEqual({
      code: 'invalid_arguments',
      message: 'Invalid arguments for "echo": /valueOf must be string',
    });
  });

  it.each(MODES)('fills the default of a property named "constructor" as an own property (%s)', async (validation) => {
    const seen: unknown[] = [];
    const manager = managerFor(
      validation,
      echo({ type: 'object', properties: { constructor: { type: 'string', default: 'made' } }, required: ['constructor'] }, seen),
    );
    expect(await manager.execute({ id: 'c', name: 'echo', arguments: {} })).toMatchObject({ ok: true });
    expect(JSON.stringify(seen[0])).toBe('{"constructor":"made"}');
  });
});

describe('the mode applies to the registry whenever it is set', () => {
  const add = () =>
    defineTool({
      name: 'add',
      description: 'Add',
      parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number', default: 1 } }, required: ['a'] },
      idempotent: true,
      call: ({ a, b }) => a + b,
    });

  it("new ToolManager(registry, { validation: 'no-eval' }) after registration: ajv never compiled, no `new Function`", async () => {
    spies.push(vi.spyOn(Ajv.prototype, 'compile'), vi.spyOn(globalThis, 'Function'));
    const [compile, functionSpy] = spies as unknown as Array<ReturnType<typeof vi.spyOn>>;
    const registry = new ToolRegistry().register(add());
    const manager = new ToolManager(registry, { validation: 'no-eval' });
    expect(await manager.execute({ id: 'c', name: 'add', arguments: { a: 2 } })).toMatchObject({ ok: true, output: 3 });
    expect(failure(await manager.execute({ id: 'c', name: 'add', arguments: { a: 'x' } }))).toEqual({
      code: 'invalid_arguments',
      message: 'Invalid arguments for "add": /a must be number',
    });
    expect(compile).not.toHaveBeenCalled();
    expect(functionSpy).not.toHaveBeenCalled();
  });

  it("'auto' checks a tool's first calls without ajv, and compiles it once, in the background, when the tool is busy", async () => {
    spies.push(vi.spyOn(Ajv.prototype, 'compile'));
    const [compile] = spies as unknown as Array<ReturnType<typeof vi.spyOn>>;
    const manager = new ToolManager(new ToolRegistry().register(add()));
    expect(await manager.execute({ id: 'c', name: 'add', arguments: { a: 2 } })).toMatchObject({ ok: true, output: 3 });
    expect(compile).not.toHaveBeenCalled();
    for (let i = 1; i < CALLS_BEFORE_COMPILING; i++) await manager.execute({ id: `c${i}`, name: 'add', arguments: { a: i } });
    await vi.waitFor(() => expect(compile).toHaveBeenCalledTimes(1));
    // ajv's validator fills defaults and words problems as the interpreting one did.
    expect(await manager.execute({ id: 'c', name: 'add', arguments: { a: 3 } })).toMatchObject({ ok: true, output: 4 });
    expect(failure(await manager.execute({ id: 'c', name: 'add', arguments: { a: 'x' } }))).toEqual({
      code: 'invalid_arguments',
      message: 'Invalid arguments for "add": /a must be number',
    });
    expect(compile).toHaveBeenCalledTimes(1);
  });

  it.each(MODES)('still refuses a bad schema at registration, without compiling it (%s)', (validation) => {
    spies.push(vi.spyOn(Ajv.prototype, 'compile'));
    const [compile] = spies as unknown as Array<ReturnType<typeof vi.spyOn>>;
    const bad = { ...add(), parameters: { type: 'object', properties: { a: { type: 'numbr' } } } } as unknown as Tool;
    let error: unknown;
    try {
      new ToolRegistry({ validation }).register(bad);
    } catch (e) {
      error = e;
    }
    expect(isAmbiError(error, 'invalid_tool')).toBe(true);
    expect((error as Error).message).toMatch(
      /^Tool "add": invalid parameters schema: schema is invalid: \/properties\/a\/type is "numbr": "numbr" is not a JSON Schema type; use one of "string"/,
    );
    expect(compile).not.toHaveBeenCalled();
  });

  it('a schema ajv refuses when the tool gets busy leaves it on the interpreting check: no call fails for it', async () => {
    spies.push(
      vi.spyOn(Ajv.prototype, 'compile').mockImplementation(() => {
        throw new Error('ajv says no');
      }),
    );
    const [compile] = spies as unknown as Array<ReturnType<typeof vi.spyOn>>;
    const manager = new ToolManager(new ToolRegistry().register(add()));
    for (let i = 0; i < CALLS_BEFORE_COMPILING; i++) await manager.execute({ id: `c${i}`, name: 'add', arguments: { a: i } });
    await vi.waitFor(() => expect(compile).toHaveBeenCalled());
    expect(await manager.execute({ id: 'c', name: 'add', arguments: { a: 1 } })).toMatchObject({ ok: true, output: 2 });
    expect(failure(await manager.execute({ id: 'c', name: 'add', arguments: { a: 'x' } }))).toEqual({
      code: 'invalid_arguments',
      message: 'Invalid arguments for "add": /a must be number',
    });
  });

  it.each(MODES)('refuses a "__proto__" keyword, which would hide keywords in the prepared schema (%s)', (validation) => {
    const bad = { ...add(), parameters: JSON.parse('{"type":"object","__proto__":{"required":["a"]}}') } as Tool;
    expect(() => new ToolRegistry({ validation }).register(bad)).toThrow('Tool "add": invalid parameters schema: strict mode: unknown keyword: "__proto__"');
  });
});
