// Tools whose parameters are a Standard Schema (zod 4 here): JSON Schema for the model,
// validation by the schema itself, problems in the format JSON Schema problems have.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  AmbiError,
  ChatRunner,
  defineTool,
  InvalidToolError,
  isAmbiError,
  scriptedEngine,
  ToolManager,
  ToolRegistry,
  type StandardSchemaV1,
  type Tool,
  type ToolResult,
} from '../../src/index.js';
import type { ToolFailure } from '../../src/extend/index.js';
import { serveCall, servedTool, serveRule } from '../../src/call/serve.js';
import { LazyAbortController } from '../../src/util/abort-source.js';
import { runAttempt } from '../../src/call/attempt.js';

const manager = (...tools: Tool[]) => new ToolManager(tools.reduce((registry, tool) => registry.register(tool), new ToolRegistry()));

function failure(result: ToolResult): ToolFailure {
  expect(result.ok).toBe(false);
  return result as ToolFailure;
}

const pair = z.object({ a: z.number(), b: z.number() });
const add = defineTool({ name: 'add', description: 'Add two numbers', parameters: pair, idempotent: true, call: ({ a, b }) => a + b });

describe('defineTool with a zod schema', () => {
  it('tells the model the JSON Schema of the input, from the schema itself', () => {
    expect(add.parameters).toEqual({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    expect(add.standardSchema).toBe(pair);
    expect(new ToolRegistry().register(add).definitions()).toEqual([{ name: 'add', description: 'Add two numbers', parameters: add.parameters }]);
  });

  it('describes what the model sends: optional defaults, the input side of transforms', () => {
    const tool = defineTool({
      name: 'search',
      description: 'Search',
      parameters: z.object({ query: z.string().min(1), limit: z.number().int().default(10), tags: z.string().transform((s) => s.split(',')) }),
      idempotent: true,
      call: () => null,
    });
    expect(tool.parameters).toMatchObject({ properties: { limit: { default: 10 }, tags: { type: 'string' } }, required: ['query', 'tags'] });
    expect(tool.parameters).not.toHaveProperty('$schema');
  });

  it('uses an explicit jsonSchema instead of converting', () => {
    const jsonSchema = { type: 'object', properties: { a: { type: 'number', description: 'first' } } } as const;
    const tool = defineTool({ name: 'one', description: 'x', parameters: z.object({ a: z.number() }), jsonSchema, idempotent: true, call: () => 1 });
    expect(tool.parameters).toBe(jsonSchema);
  });

  it('refuses, naming the fix, a schema that cannot become JSON Schema', () => {
    const define = () => defineTool({ name: 'when', description: 'x', parameters: z.object({ at: z.date() }), idempotent: true, call: () => 1 });
    expect(define).toThrow(InvalidToolError);
    expect(define).toThrow(/pass `jsonSchema`/);
  });

  it('takes any Standard Schema; one without a converter needs jsonSchema', () => {
    const evens: StandardSchemaV1<unknown, { n: number }> = {
      '~standard': {
        version: 1,
        vendor: 'hand-made',
        validate: (value) => {
          const n = (value as { n?: unknown }).n;
          return typeof n === 'number' && n % 2 === 0 ? { value: { n } } : { issues: [{ message: 'must be even', path: [{ key: 'n' }] }] };
        },
      },
    };
    expect(() => defineTool({ name: 'even', description: 'x', parameters: evens, idempotent: true, call: () => 1 })).toThrow(/no JSON Schema converter/);
    const tool = defineTool({
      name: 'even',
      description: 'x',
      parameters: evens,
      jsonSchema: { type: 'object', properties: { n: { type: 'integer' } } },
      idempotent: true,
      call: ({ n }) => n / 2,
    });
    expect(tool.parameters).toEqual({ type: 'object', properties: { n: { type: 'integer' } } });
    return expect(
      Promise.all([
        manager(tool).execute({ id: 'c1', name: 'even', arguments: { n: 4 } }),
        manager(tool).execute({ id: 'c2', name: 'even', arguments: { n: 3 } }),
      ]),
    ).resolves.toMatchObject([
      { ok: true, output: 2 },
      { ok: false, error: { code: 'invalid_arguments', message: 'Invalid arguments for "even": /n must be even' } },
    ]);
  });
});

describe('validating with the Standard Schema, in process', () => {
  it('runs a valid call', async () => {
    expect(await manager(add).execute({ id: 'c1', name: 'add', arguments: { a: 2, b: 3 } })).toMatchObject({ ok: true, output: 5, attempts: 1 });
  });

  it("words zod's issues as JSON Schema problems are worded: the JSON pointer, then the library's message", async () => {
    const result = failure(await manager(add).execute({ id: 'c1', name: 'add', arguments: { a: 1, b: 'two' } }));
    expect(result.error).toEqual({ code: 'invalid_arguments', message: 'Invalid arguments for "add": /b Invalid input: expected number, received string' });
    expect(result.attempts).toBe(0);
  });

  it('reports every issue, nested paths as pointers, whole-value issues against "arguments"', async () => {
    const schema = z
      .object({ user: z.object({ tags: z.array(z.string()) }), from: z.number(), to: z.number() })
      .refine((v) => v.from <= v.to, { message: 'from must not exceed to' });
    const tool = defineTool({ name: 'range', description: 'x', parameters: schema, idempotent: true, call: () => null });
    const nested = failure(await manager(tool).execute({ id: 'c1', name: 'range', arguments: { user: { tags: ['a', 2] }, from: 1 } }));
    expect(nested.error.message).toBe(
      'Invalid arguments for "range": /user/tags/1 Invalid input: expected string, received number; /to Invalid input: expected number, received undefined',
    );
    const refined = failure(await manager(tool).execute({ id: 'c2', name: 'range', arguments: { user: { tags: [] }, from: 5, to: 1 } }));
    expect(refined.error.message).toBe('Invalid arguments for "range": arguments from must not exceed to');
  });

  it('escapes path segments as a JSON pointer does', async () => {
    const tool = defineTool({
      name: 'odd',
      description: 'x',
      parameters: z.object({ 'a/b': z.object({ 'c~d': z.number() }) }),
      idempotent: true,
      call: () => null,
    });
    const result = failure(await manager(tool).execute({ id: 'c1', name: 'odd', arguments: { 'a/b': { 'c~d': 'x' } } }));
    expect(result.error.message).toBe('Invalid arguments for "odd": /a~1b/c~0d Invalid input: expected number, received string');
  });

  it('hands the call the output of the schema: transforms, defaults and coercions applied', async () => {
    const seen: unknown[] = [];
    const tool = defineTool({
      name: 'tag',
      description: 'x',
      parameters: z.object({ tags: z.string().transform((s) => s.split(',')), limit: z.number().default(10), when: z.coerce.number() }),
      idempotent: true,
      call: (args) => {
        seen.push(args);
        return args.tags.length + args.limit;
      },
    });
    const result = await manager(tool).execute({ id: 'c1', name: 'tag', arguments: '{"tags":"a,b,c","when":"7","extra":1}' });
    expect(result).toMatchObject({ ok: true, output: 13 });
    expect(seen).toEqual([{ tags: ['a', 'b', 'c'], limit: 10, when: 7 }]);
  });

  it('never calls a tool whose arguments the schema refuses, refinements included', async () => {
    const call = vi.fn();
    const tool = defineTool({
      name: 'mail',
      description: 'x',
      parameters: z.object({ to: z.email(), body: z.string().refine((s) => !s.includes('spam'), 'no spam') }),
      idempotent: false,
      call,
    });
    const results = await Promise.all([
      manager(tool).execute({ id: 'c1', name: 'mail', arguments: { to: 'not-an-address', body: 'hi' } }),
      manager(tool).execute({ id: 'c2', name: 'mail', arguments: { to: 'a@b.co', body: 'buy spam' } }),
    ]);
    expect(results.map((r) => failure(r).error.message)).toEqual([
      'Invalid arguments for "mail": /to Invalid email address',
      'Invalid arguments for "mail": /body no spam',
    ]);
    expect(call).not.toHaveBeenCalled();
  });

  it("keeps the code of a coded error its validate throws (a check that could not be made); any other throw is the arguments' problem", async () => {
    const throwing = (error: unknown): StandardSchemaV1<unknown, { n: number }> => ({
      '~standard': {
        version: 1,
        vendor: 'hand-made',
        validate: () => {
          throw error;
        },
      },
    });
    let ran = 0;
    const tool = (error: unknown) =>
      defineTool({
        name: 'checked',
        description: 'x',
        parameters: throwing(error),
        jsonSchema: { type: 'object', properties: { n: { type: 'integer' } } },
        idempotent: true,
        call: () => ++ran,
      });
    const coded = await manager(tool(new AmbiError('tab_gone', 'The page holding the schema went away'))).execute({
      id: 'c1',
      name: 'checked',
      arguments: { n: 1 },
    });
    expect(failure(coded).error).toEqual({ code: 'tab_gone', message: 'The page holding the schema went away' });
    const plain = await manager(tool(new TypeError('bad schema'))).execute({ id: 'c2', name: 'checked', arguments: { n: 1 } });
    expect(failure(plain).error).toEqual({ code: 'invalid_arguments', message: expect.stringContaining('arguments could not be validated: bad schema') });
    expect(ran).toBe(0);
  });

  it('awaits an asynchronous schema (an async refinement)', async () => {
    const tool = defineTool({
      name: 'slowcheck',
      description: 'x',
      parameters: z.object({ n: z.number().refine(async (n) => n > 0, 'must be positive') }),
      idempotent: true,
      call: ({ n }) => n,
    });
    expect(await manager(tool).execute({ id: 'c1', name: 'slowcheck', arguments: { n: 2 } })).toMatchObject({ ok: true, output: 2 });
    expect(failure(await manager(tool).execute({ id: 'c2', name: 'slowcheck', arguments: { n: -1 } })).error.message).toBe(
      'Invalid arguments for "slowcheck": /n must be positive',
    );
  });

  it('compiles nothing for it: the JSON Schema is only what the model reads', () => {
    const strange = defineTool({
      name: 'strange',
      description: 'x',
      parameters: z.object({ a: z.number() }),
      jsonSchema: { type: 'object', properties: { a: { type: 'number', nonsense: true } } } as never,
      idempotent: true,
      call: () => 1,
    });
    expect(() => new ToolRegistry({ validation: 'no-eval' }).register(strange)).not.toThrow();
  });

  it('asks for approval with the parsed arguments, and never for arguments the schema refuses', async () => {
    const rule = vi.fn((args: { amount: number }) => args.amount > 100);
    const pay = defineTool({
      name: 'pay',
      description: 'x',
      parameters: z.object({ amount: z.coerce.number() }),
      idempotent: false,
      needsApproval: rule,
      call: ({ amount }) => amount,
    });
    const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: '250' } }] }, 'paid']))).tool(pay);
    const run = new ChatRunner().run(agent, 'pay');
    for await (const event of run.events) if (event.type === 'approval_requested') run.approve(event.call.id);
    expect((await run.result).toolResults).toMatchObject([{ ok: true, output: 250 }]);
    expect(rule).toHaveBeenCalledWith({ amount: 250 }, expect.objectContaining({ signal: expect.any(AbortSignal) }));
  });

  it('validates a call once though its approval rule also reads the arguments: the rule and the tool get the same parsed value', async () => {
    const schema = z.object({ amount: z.coerce.number() });
    const validate = vi.spyOn(schema['~standard'], 'validate');
    let approvedArgs: unknown;
    let ranWith: unknown;
    const pay = defineTool({
      name: 'pay',
      description: 'x',
      parameters: schema,
      idempotent: false,
      needsApproval: (args) => ((approvedArgs = args), true),
      call: (args) => ((ranWith = args), args.amount),
    });
    const agent = (await Agent.make(scriptedEngine([{ toolCalls: [{ id: 'p1', name: 'pay', arguments: { amount: '250' } }] }, 'paid']))).tool(pay);
    const run = new ChatRunner().run(agent, 'pay');
    for await (const event of run.events) if (event.type === 'approval_requested') run.approve(event.call.id);
    expect((await run.result).toolResults).toMatchObject([{ ok: true, output: 250 }]);
    expect(validate).toHaveBeenCalledTimes(1);
    expect(ranWith).toBe(approvedArgs);
  });
});

describe('validating again where a remote tool lives (page or tool worker)', () => {
  const ctx = { callId: 'c1', attempt: 1, idempotencyKey: 'k' };
  const signal = new LazyAbortController();

  it('calls with the schema output, transforms applied', async () => {
    const tool = defineTool({
      name: 'len',
      description: 'x',
      parameters: z.object({ s: z.string().transform((s) => s.length) }),
      idempotent: true,
      call: ({ s }) => s * 2,
    });
    expect(await serveCall(servedTool(tool), { s: 'abc' }, ctx, signal)).toBe(6);
  });

  it('refuses, with code invalid_arguments and the same wording, what the JSON Schema let through', async () => {
    const call = vi.fn();
    const tool = defineTool({
      name: 'pos',
      description: 'x',
      parameters: z.object({ n: z.number().refine((n) => n > 0, 'must be positive') }),
      idempotent: true,
      call,
    });
    const error = await Promise.resolve(serveCall(servedTool(tool), { n: -3 }, ctx, signal)).catch((e: unknown) => e);
    expect(isAmbiError(error, 'invalid_arguments')).toBe(true);
    expect((error as Error).message).toBe('Invalid arguments for "pos": /n must be positive');
    expect(call).not.toHaveBeenCalled();
  });

  it('decides approval on the schema output, and says no for refused arguments', async () => {
    const rule = vi.fn((args: { n: number }) => args.n > 1);
    const tool = defineTool({
      name: 'big',
      description: 'x',
      parameters: z.object({ n: z.coerce.number() }),
      idempotent: true,
      needsApproval: rule,
      call: () => null,
    });
    expect(await serveRule(servedTool(tool), { n: '5' }, new LazyAbortController())).toBe(true);
    expect(rule).toHaveBeenCalledWith({ n: 5 }, expect.objectContaining({ signal: expect.any(AbortSignal) }));
    expect(await serveRule(servedTool(tool), { n: 'five' }, new LazyAbortController())).toBe(false);
  });

  it('reports a remote refusal as invalid arguments with attempts 0 (the call never ran)', async () => {
    const refusing = {
      ...add,
      standardSchema: undefined,
      call: () =>
        Promise.reject(
          Object.assign(new Error('Invalid arguments for "add": /a must be positive'), { code: 'invalid_arguments', [Symbol.for('ambi-web.error')]: true }),
        ),
    };
    const result = failure(await manager(refusing).execute({ id: 'c1', name: 'add', arguments: { a: 1, b: 2 } }));
    expect(result).toMatchObject({ attempts: 0, error: { code: 'invalid_arguments', message: 'Invalid arguments for "add": /a must be positive' } });
  });

  it('ends an attempt refused where the tool lives as invalid arguments, not as a crash', async () => {
    const refused = new AmbiError('invalid_arguments', 'Invalid arguments for "add": /a must be positive');
    for (const call of [
      () => {
        throw refused;
      },
      () => Promise.reject(refused),
    ]) {
      const outcome = await runAttempt(
        { ...add, standardSchema: undefined, call },
        { a: 1, b: 2 },
        { callId: 'c1', attempt: 1, idempotencyKey: 'k' },
        undefined,
      );
      expect(outcome).toEqual({ kind: 'invalid_arguments', message: 'Invalid arguments for "add": /a must be positive' });
    }
  });
});
