// Issue 13, validation: what the model reads of an output is `JSON.stringify(output)`,
// with toJSON, boxed primitives and own "__proto__" keys exactly as JSON.stringify treats them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent, ChatRunner, defineTool, scriptedEngine, ToolManager, ToolRegistry, type ToolResult } from '../../src/index.js';
import { toJsonOutput } from '../../src/tools/json-output.js';

/** What a tool returning `output` gives back, through a ToolManager. */
async function resultOf(output: () => unknown): Promise<ToolResult> {
  const tool = defineTool({ name: 'out', description: 'x', parameters: { type: 'object' }, idempotent: true, call: output });
  return new ToolManager(new ToolRegistry().register(tool)).execute({ id: 'c', name: 'out', arguments: {} });
}

const readsAs = async (output: () => unknown) => {
  const result = await resultOf(output);
  if (!result.ok) throw new Error(`expected a success, got ${result.error.code}: ${result.error.message}`);
  return JSON.stringify(result.output);
};

describe('outputs read as JSON.stringify reads them', () => {
  it('keeps an own "__proto__" key as a key (not the prototype of the output)', async () => {
    const text = '{"__proto__":{"secret":1},"b":[{"__proto__":2}]}';
    expect(await readsAs(() => JSON.parse(text))).toBe(text);
    const result = await resultOf(() => JSON.parse(text));
    expect(Object.getPrototypeOf((result as { output: object }).output)).toBe(Object.prototype);
  });

  it('unboxes boxed strings, numbers and booleans, anywhere', async () => {
    expect(await readsAs(() => new String('x'))).toBe('"x"');
    expect(await readsAs(() => ({ s: new String('ab'), list: [new Number(3), new Boolean(false)] }))).toBe('{"s":"ab","list":[3,false]}');
  });

  it('unboxes as JSON.stringify does: through valueOf and toString', async () => {
    const number = Object.assign(new Number(1), { valueOf: () => 5 });
    const string = Object.assign(new String('a'), { toString: () => 'b' });
    const output = { number, string };
    expect(await readsAs(() => output)).toBe(JSON.stringify(output));
  });

  it('unboxes what toJSON returns', async () => {
    expect(await readsAs(() => ({ a: { toJSON: () => new String('y') } }))).toBe('{"a":"y"}');
  });

  it('refuses a boxed BigInt, as JSON.stringify does (crashed)', async () => {
    const result = await resultOf(() => ({ n: Object(1n) }));
    expect(result).toMatchObject({ ok: false, error: { code: 'crashed' } });
    expect((result as { error: { message: string } }).error.message).toMatch(/\/n is a BigInt/);
  });

  it('uses BigInt.prototype.toJSON where a page defines it, as JSON.stringify does', async () => {
    const proto = BigInt.prototype as unknown as { toJSON?: () => string };
    proto.toJSON = function (this: bigint) {
      return this.toString();
    };
    try {
      expect(await readsAs(() => ({ n: 12n }))).toBe('{"n":"12"}');
    } finally {
      delete proto.toJSON;
    }
  });

  it('the tool message the model reads holds the "__proto__" key', async () => {
    const tool = defineTool({
      name: 'out',
      description: 'x',
      parameters: { type: 'object' },
      idempotent: true,
      call: () => JSON.parse('{"__proto__":{"kept":true}}'),
    });
    const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ id: 'c1', name: 'out', arguments: {} }] }, 'done']))).tool(tool);
    const { messages } = await new ChatRunner().run(agent, 'go').result;
    const toolMessage = messages.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toBe('{"ok":true,"output":{"__proto__":{"kept":true}}}');
  });

  it('matches JSON.stringify on random values with "__proto__" keys and boxed primitives', () => {
    const value = fc.anything({
      key: fc.constantFrom('__proto__', 'a', 'toJSON', 'valueOf', 'constructor'),
      values: [fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.constant(null)],
      withBoxedValues: true,
      maxDepth: 3,
    });
    fc.assert(
      fc.property(value, (output) => {
        expect(JSON.stringify(toJsonOutput(output))).toBe(JSON.stringify(output));
      }),
      { numRuns: 500 },
    );
  });
});
