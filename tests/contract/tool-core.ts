// The tool core's specification, run unchanged in Node and in Chromium.
import Ajv from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { CALLS_BEFORE_COMPILING } from '../../src/validation/tool-args-check.js';
import {
  AmbiError,
  defineTool,
  DuplicateToolError,
  InvalidToolError,
  isAmbiError,
  ToolError,
  ToolManager,
  ToolRegistry,
  type Tool,
  type ToolContext,
  type ToolResult,
  type ValidationMode,
} from '../../src/index.js';
import type { ToolFailure } from '../../src/extend/index.js';

const pair = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
} as const;

/** A tool whose calls and contexts are recorded, with a body chosen per attempt. */
function recorded(
  options: { idempotent: boolean; timeoutMs?: number; maxRetries?: number; retryDelayMs?: number },
  body: (ctx: ToolContext, attempt: number) => unknown,
) {
  const contexts: ToolContext[] = [];
  const tool = defineTool({
    name: 'probe',
    description: 'records its calls',
    parameters: { type: 'object', properties: {} },
    retryDelayMs: 1,
    ...options,
    call: (_args, ctx) => {
      contexts.push(ctx);
      return body(ctx, ctx.attempt);
    },
  });
  return { tool, contexts };
}

function managerWith(...tools: Tool[]): ToolManager {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool);
  return new ToolManager(registry);
}

/** Two tools on `{ list?: number[] }` arguments, `plain` and `withDefault` (which adds `n: 1`), both running `call`, under one validation mode. */
function listTools(validation: ValidationMode, call: (args: { list?: number[] }) => unknown): ToolManager {
  const list = { type: 'array', items: { type: 'number' } } as const;
  const schemas = {
    plain: { type: 'object', properties: { list } },
    withDefault: { type: 'object', properties: { list, n: { type: 'number', default: 1 } } },
  } as const;
  const registry = new ToolRegistry({ validation });
  for (const [name, parameters] of Object.entries(schemas)) {
    registry.register(defineTool({ name, description: 'Uses its arguments', parameters, idempotent: true, call }));
  }
  return new ToolManager(registry);
}

/** Resolves never on its own; rejects with the signal's reason when it aborts. */
function hang(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
}

function failure(result: ToolResult): ToolFailure {
  expect(result.ok).toBe(false);
  return result as ToolFailure;
}

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: pair,
  idempotent: true,
  call: ({ a, b }) => a + b,
});

export function describeToolCore(realm: string): void {
  describe(`tool core (${realm})`, () => {
    describe('defineTool and registration', () => {
      it('fills the default policy: 15 000 ms, 3 retries, 500 ms apart', () => {
        expect([add.timeoutMs, add.maxRetries, add.retryDelayMs]).toEqual([15_000, 3, 500]);
      });

      it('refuses a second tool with a taken name with DuplicateToolError', () => {
        const registry = new ToolRegistry().register(add);
        const error = captureThrow(() => registry.register({ ...add }));
        expect(error).toBeInstanceOf(DuplicateToolError);
        expect(isAmbiError(error, 'duplicate_tool')).toBe(true);
      });

      it.each(['', 'has space', 'x'.repeat(65), 'dot.name', 'ümlaut'])('refuses the tool name %j at registration', (name) => {
        const error = captureThrow(() => new ToolRegistry().register({ ...add, name }));
        expect(error).toBeInstanceOf(InvalidToolError);
        expect((error as InvalidToolError).code).toBe('invalid_tool');
        expect((error as Error).message).toMatch(/1 to 64 letters/);
      });

      it('accepts a 64-character name of letters, digits, _ and -', () => {
        const name = `a-_9${'x'.repeat(60)}`;
        expect(new ToolRegistry().register({ ...add, name }).get(name)?.name).toBe(name);
      });

      it('refuses parameters that do not describe an object', () => {
        const error = captureThrow(() => new ToolRegistry().register({ ...add, parameters: { type: 'string' } as never }));
        expect((error as Error).message).toMatch(/must describe an object/);
      });

      it('refuses an invalid schema at registration, naming the problem', () => {
        const bad = { type: 'object', properties: { a: { type: 'numbr' } } } as never;
        const error = captureThrow(() => new ToolRegistry().register({ ...add, parameters: bad }));
        expect(isAmbiError(error, 'invalid_tool')).toBe(true);
        expect((error as Error).message).toMatch(/invalid parameters schema/);
      });

      it('refuses a schema with an unknown keyword (a typo) at registration', () => {
        const bad = { type: 'object', properties: {}, requird: ['a'] } as never;
        expect(() => new ToolRegistry().register({ ...add, parameters: bad })).toThrow(/requird/);
      });

      it('refuses a tool that does not say whether it is idempotent', () => {
        const { idempotent: _, ...rest } = add;
        expect(() => new ToolRegistry().register(rest as Tool)).toThrow(/idempotent must be true or false/);
      });

      it.each([
        ['timeoutMs', 0],
        ['maxRetries', -1],
        ['maxRetries', 1.5],
        ['retryDelayMs', Number.NaN],
      ])('refuses the policy %s = %s', (field, value) => {
        expect(() => new ToolRegistry().register({ ...add, [field]: value })).toThrow(InvalidToolError);
      });

      it('lists definitions in registration order', () => {
        const echo = defineTool({ name: 'echo', description: 'Echo', parameters: { type: 'object' }, idempotent: true, call: () => null });
        const defs = new ToolRegistry().register(add).register(echo).definitions();
        expect(defs).toEqual([
          { name: 'add', description: 'Add two numbers', parameters: pair },
          { name: 'echo', description: 'Echo', parameters: { type: 'object' } },
        ]);
      });

      it('lists the same definitions until a tool is registered, then the new one too', () => {
        const echo = defineTool({ name: 'echo', description: 'Echo', parameters: { type: 'object' }, idempotent: true, call: () => null });
        const registry = new ToolRegistry().register(add);
        const first = registry.definitions();
        expect(registry.definitions()).toBe(first);
        expect(Object.isFrozen(first) && first.every((definition) => Object.isFrozen(definition))).toBe(true);
        expect(
          registry
            .register(echo)
            .definitions()
            .map((definition) => definition.name),
        ).toEqual(['add', 'echo']);
        expect(first.map((definition) => definition.name)).toEqual(['add']);
      });

      it("checks a tool's first calls without compiling, then compiles it with ajv once, never per call", async () => {
        const compile = vi.spyOn(Ajv.prototype, 'compile');
        try {
          const tool = { ...add, parameters: structuredClone(pair) };
          const manager = managerWith(tool);
          expect(compile).not.toHaveBeenCalled(); // its mode may still change: no eval before it is known
          for (let i = 0; i < CALLS_BEFORE_COMPILING - 1; i++) await manager.execute({ id: `c${i}`, name: 'add', arguments: { a: i, b: 1 } });
          expect(compile).not.toHaveBeenCalled(); // a first answer never waits for ajv
          await manager.execute({ id: 'busy', name: 'add', arguments: { a: 1, b: 1 } });
          await vi.waitFor(() => expect(compile).toHaveBeenCalledTimes(1)); // in the background, once the tool is busy
          for (let i = 0; i < 5; i++) await manager.execute({ id: `d${i}`, name: 'add', arguments: { a: i, b: 1 } });
          expect(failure(await manager.execute({ id: 'bad', name: 'add', arguments: { a: 'x', b: 1 } })).error.code).toBe('invalid_arguments');
          expect(compile).toHaveBeenCalledTimes(1);
        } finally {
          compile.mockRestore();
        }
      });
    });

    describe('decoding arguments', () => {
      it('runs a valid call and returns its output', async () => {
        const result = await managerWith(add).execute({ id: 'c1', name: 'add', arguments: { a: 2, b: 3 } });
        expect(result).toMatchObject({ id: 'c1', name: 'add', ok: true, output: 5, attempts: 1 });
        expect(result.durationMs).toBeGreaterThanOrEqual(0);
      });

      it('reports an unknown tool with the available names, attempts 0', async () => {
        const result = failure(await managerWith(add).execute({ id: 'c1', name: 'mul', arguments: {} }));
        expect(result.error).toEqual({ code: 'unknown_tool', message: 'Unknown tool "mul". Available tools: add' });
        expect(result.attempts).toBe(0);
      });

      it('never runs a call with invalid arguments, and names the path and the expectation', async () => {
        const call = vi.fn();
        const tool = { ...add, call };
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'add', arguments: { a: 1, b: 'two' } }));
        expect(result.error.code).toBe('invalid_arguments');
        expect(result.error.message).toContain('/b must be number');
        expect(result.attempts).toBe(0);
        expect(call).not.toHaveBeenCalled();
      });

      it('reports every problem at once: missing and extra properties', async () => {
        const result = failure(await managerWith(add).execute({ id: 'c1', name: 'add', arguments: { a: 1, c: 3 } }));
        expect(result.error.message).toContain("arguments must have required property 'b'");
        expect(result.error.message).toContain("arguments must NOT have additional properties ('c')");
      });

      it('decodes arguments given as JSON text', async () => {
        const result = await managerWith(add).execute({ id: 'c1', name: 'add', arguments: '{"a":1,"b":2}' });
        expect(result).toMatchObject({ ok: true, output: 3 });
      });

      it('reports arguments that are not JSON as invalid arguments', async () => {
        const result = failure(await managerWith(add).execute({ id: 'c1', name: 'add', arguments: '{"a":1,' }));
        expect(result.error).toMatchObject({ code: 'invalid_arguments' });
        expect(result.error.message).toContain('not valid JSON: {"a":1,');
      });

      it('treats absent arguments as an empty object and fills schema defaults', async () => {
        const seen: unknown[] = [];
        const tool = defineTool({
          name: 'greet',
          description: 'Greet',
          parameters: { type: 'object', properties: { who: { type: 'string', default: 'world' } } },
          idempotent: true,
          call: (args) => {
            seen.push(args);
            return `hello ${args.who}`;
          },
        });
        const result = await managerWith(tool).execute({ id: 'c1', name: 'greet', arguments: undefined });
        expect(result).toMatchObject({ ok: true, output: 'hello world' });
        expect(seen).toEqual([{ who: 'world' }]);
      });

      for (const validation of ['auto', 'no-eval'] as const) {
        it(`hands the tool a copy of arguments given as an object: the caller's object never changes (${validation})`, async () => {
          const manager = listTools(validation, (args) => {
            args.list?.push(99);
            (args as Record<string, unknown>).extra = true;
            return args.list?.length ?? 0;
          });
          for (const name of ['plain', 'withDefault']) {
            const args = { list: [1, 2] };
            expect(await manager.execute({ id: 'c1', name, arguments: args })).toMatchObject({ ok: true, output: 3 });
            expect(args).toEqual({ list: [1, 2] });
          }
        });

        it(`decodes JSON text arguments afresh for every call, defaults filled (${validation})`, async () => {
          const seen: unknown[] = [];
          const manager = listTools(validation, (args) => {
            seen.push(args);
            args.list?.push(99);
            return null;
          });
          for (const name of ['plain', 'plain', 'withDefault', 'withDefault']) await manager.execute({ id: 'c1', name, arguments: '{"list":[1]}' });
          expect(seen).toEqual([{ list: [1, 99] }, { list: [1, 99] }, { list: [1, 99], n: 1 }, { list: [1, 99], n: 1 }]);
          expect(new Set(seen).size).toBe(4);
        });
      }
    });

    describe('timeouts and retries', () => {
      it('aborts the signal of a timed-out attempt with a TimeoutError and retries an idempotent tool', async () => {
        const { tool, contexts } = recorded({ idempotent: true, timeoutMs: 15, maxRetries: 2 }, (ctx) => hang(ctx.signal));
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }));
        expect(result.error.code).toBe('timeout');
        expect(result.attempts).toBe(3);
        expect(contexts.map((c) => c.attempt)).toEqual([1, 2, 3]);
        expect(contexts.every((c) => c.signal.aborted && (c.signal.reason as DOMException).name === 'TimeoutError')).toBe(true);
      });

      it('makes at most 4 attempts with the default maxRetries of 3', async () => {
        const { tool, contexts } = recorded({ idempotent: true, timeoutMs: 10 }, (ctx) => hang(ctx.signal));
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }));
        expect([result.attempts, contexts.length]).toEqual([4, 4]);
        expect(result.error.message).toBe('Tool "probe" timed out after 10 ms on each of 4 attempts');
      });

      it('keeps one idempotency key and call id across the attempts of a call, and a new key per call', async () => {
        const { tool, contexts } = recorded({ idempotent: true, timeoutMs: 10, maxRetries: 1 }, (ctx) => hang(ctx.signal));
        const manager = managerWith(tool);
        await manager.execute({ id: 'first', name: 'probe', arguments: {} });
        await manager.execute({ id: 'second', name: 'probe', arguments: {} });
        const [a1, a2, b1, b2] = contexts.map((c) => [c.callId, c.idempotencyKey] as const);
        expect(a1![0]).toBe('first');
        expect(a1).toEqual(a2);
        expect(b1).toEqual(b2);
        expect(b1![1]).not.toBe(a1![1]);
      });

      it('succeeds on a retry after a timeout', async () => {
        const { tool } = recorded({ idempotent: true, timeoutMs: 15 }, (ctx, attempt) => (attempt === 1 ? hang(ctx.signal) : 'second time'));
        const result = await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} });
        expect(result).toMatchObject({ ok: true, output: 'second time', attempts: 2 });
      });

      it('reports each retry before it waits', async () => {
        const { tool } = recorded({ idempotent: true, timeoutMs: 10, maxRetries: 2, retryDelayMs: 3 }, (ctx) => hang(ctx.signal));
        const retries: unknown[] = [];
        const attempts: number[] = [];
        await managerWith(tool).execute(
          { id: 'c1', name: 'probe', arguments: {} },
          { onRetry: (info) => retries.push(info), onAttempt: (n) => attempts.push(n) },
        );
        expect(attempts).toEqual([1, 2, 3]);
        expect(retries).toEqual([
          { attempt: 1, nextAttempt: 2, delayMs: 3 },
          { attempt: 2, nextAttempt: 3, delayMs: 3 },
        ]);
      });

      it('never retries a non-idempotent tool, even after a timeout', async () => {
        const { tool, contexts } = recorded({ idempotent: false, timeoutMs: 10 }, (ctx) => hang(ctx.signal));
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }));
        expect([result.error.code, result.attempts, contexts.length]).toEqual(['timeout', 1, 1]);
      });

      it('discards a result that arrives after its timeout', async () => {
        let lateDelivered!: () => void;
        const delivered = new Promise<void>((resolve) => (lateDelivered = resolve));
        const { tool } = recorded(
          { idempotent: false, timeoutMs: 10 },
          () => new Promise((resolve) => setTimeout(() => (resolve('too late'), lateDelivered()), 40)),
        );
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }));
        await delivered;
        expect(result.error.code).toBe('timeout');
        expect(result).not.toHaveProperty('output');
      });
    });

    describe('failures that are never retried', () => {
      it('returns a ToolError as tool_error with its message, once, even for an idempotent tool', async () => {
        const { tool, contexts } = recorded({ idempotent: true }, () => {
          throw new ToolError('No such customer: 42');
        });
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }));
        expect(result.error).toEqual({ code: 'tool_error', message: 'No such customer: 42' });
        expect([result.attempts, contexts.length]).toEqual([1, 1]);
      });

      it('returns any other throw as crashed, once, even for an idempotent tool', async () => {
        const { tool, contexts } = recorded({ idempotent: true }, async () => {
          throw new TypeError('x is undefined');
        });
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }));
        expect(result.error).toEqual({ code: 'crashed', message: 'Tool "probe" failed unexpectedly: TypeError: x is undefined' });
        expect(contexts.length).toBe(1);
      });

      it('keeps the code of a coded infrastructure error (e.g. worker_crashed), without retrying', async () => {
        const { tool, contexts } = recorded({ idempotent: true }, () => {
          throw new AmbiError('worker_crashed', 'The tool worker crashed: boom');
        });
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }));
        expect(result.error).toEqual({ code: 'worker_crashed', message: 'The tool worker crashed: boom' });
        expect(contexts.length).toBe(1);
      });

      it('returns a synchronous throw of a non-Error as crashed', async () => {
        const { tool } = recorded({ idempotent: false }, () => {
          throw 'plain string';
        });
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }));
        expect(result.error.message).toBe('Tool "probe" failed unexpectedly: plain string');
      });
    });

    describe('outside abort', () => {
      it('ends a running call as aborted, aborts its signal with the outside reason, and does not retry', async () => {
        const outside = new AbortController();
        const { tool, contexts } = recorded({ idempotent: true, timeoutMs: 5_000 }, (ctx) => {
          setTimeout(() => outside.abort(new Error('user pressed stop')), 5);
          return hang(ctx.signal);
        });
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }, { signal: outside.signal }));
        expect(result.error).toEqual({ code: 'aborted', message: 'Tool "probe" was aborted: user pressed stop' });
        expect([result.attempts, contexts.length]).toEqual([1, 1]);
        expect((contexts[0]!.signal.reason as Error).message).toBe('user pressed stop');
      });

      it('ends the call as aborted when the abort comes during the wait before a retry', async () => {
        const outside = new AbortController();
        const { tool, contexts } = recorded({ idempotent: true, timeoutMs: 10, retryDelayMs: 5_000 }, (ctx) => hang(ctx.signal));
        const pending = managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }, { signal: outside.signal, onRetry: () => outside.abort('stop') });
        const result = failure(await pending);
        expect([result.error.code, result.attempts, contexts.length]).toEqual(['aborted', 1, 1]);
      });

      it('gives a tool one signal, the same on every read and in a copy of its context', async () => {
        const { tool, contexts } = recorded({ idempotent: true }, (ctx) => ({
          // biome-ignore lint/suspicious/noSelfCompare: two reads of the lazy getter must give one signal
          same: ctx.signal === ctx.signal,
          spread: { ...ctx }.signal === ctx.signal,
          keys: Object.keys(ctx).includes('signal'),
        }));
        const result = await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} });
        expect(result).toMatchObject({ ok: true, output: { same: true, spread: true, keys: true } });
        expect(contexts[0]!.signal.aborted).toBe(false);
      });

      it('aborts the signal of a timed-out attempt even if the tool reads it only afterwards', async () => {
        const { tool, contexts } = recorded({ idempotent: false, timeoutMs: 10 }, () => new Promise(() => {}));
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }));
        expect(result.error.code).toBe('timeout');
        const { signal } = contexts[0]!;
        expect(signal.aborted).toBe(true);
        expect(signal.reason).toBeInstanceOf(DOMException);
        expect((signal.reason as DOMException).name).toBe('TimeoutError');
        expect((signal.reason as DOMException).message).toBe('Tool "probe" timed out after 10 ms');
      });

      it('aborts the signal of an attempt cut off from outside with the outside reason, even if read only afterwards', async () => {
        const outside = new AbortController();
        const reason = new Error('user pressed stop');
        const { tool, contexts } = recorded({ idempotent: true, timeoutMs: 5_000 }, () => {
          setTimeout(() => outside.abort(reason), 5);
          return new Promise(() => {});
        });
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }, { signal: outside.signal }));
        expect(result.error.code).toBe('aborted');
        expect(contexts[0]!.signal.aborted).toBe(true);
        expect(contexts[0]!.signal.reason).toBe(reason);
      });

      it('leaves the signal of a finished attempt alone when the outside aborts later', async () => {
        const outside = new AbortController();
        const { tool, contexts } = recorded({ idempotent: true }, () => 'done');
        await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }, { signal: outside.signal });
        outside.abort('later');
        expect(contexts[0]!.signal.aborted).toBe(false);
      });

      it('never starts a call whose signal is already aborted', async () => {
        const { tool, contexts } = recorded({ idempotent: true }, () => 'ran');
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }, { signal: AbortSignal.abort('gone') }));
        expect([result.error.code, result.attempts, contexts.length]).toEqual(['aborted', 0, 0]);
      });
    });

    describe('outputs the model reads', () => {
      it('turns an undefined output into null and honours toJSON', async () => {
        const when = new Date(Date.UTC(2026, 0, 2));
        const { tool: none } = recorded({ idempotent: true }, () => undefined);
        const { tool: date } = recorded({ idempotent: true }, () => ({ when, skipped: undefined }));
        expect(await managerWith(none).execute({ id: 'c1', name: 'probe', arguments: {} })).toMatchObject({ ok: true, output: null });
        expect(await managerWith(date).execute({ id: 'c2', name: 'probe', arguments: {} })).toMatchObject({
          ok: true,
          output: { when: '2026-01-02T00:00:00.000Z' },
        });
      });

      it('gives toJSON the property key, as JSON.stringify does: a key holding "/", an index as a string, "" for the output', async () => {
        const keyOf = { toJSON: (key: string) => `key:${key}` };
        const output = { 'a/b': keyOf, list: [keyOf, { 'c/d/e': keyOf }], toJSON: undefined };
        const { tool } = recorded({ idempotent: true }, () => output);
        const expected = { 'a/b': 'key:a/b', list: ['key:0', { 'c/d/e': 'key:c/d/e' }] };
        expect(JSON.parse(JSON.stringify(output))).toEqual(expected);
        const result = await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} });
        expect(result.ok && result.output).toEqual(expected);
        const { tool: whole } = recorded({ idempotent: true }, () => keyOf);
        expect(await managerWith(whole).execute({ id: 'c2', name: 'probe', arguments: {} })).toMatchObject({ ok: true, output: 'key:' });
      });

      it('reports an output whose toJSON throws, or whose then throws, as crashed rather than rejecting', async () => {
        const badJson = {
          toJSON: () => {
            throw new Error('no JSON today');
          },
        };
        const badThen = Object.defineProperty({}, 'then', {
          get: () => {
            throw new Error('no then either');
          },
        });
        for (const [output, detail] of [
          [badJson, 'no JSON today'],
          [badThen, 'no then either'],
        ] as const) {
          const { tool } = recorded({ idempotent: true }, () => output);
          const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }));
          expect([result.error.code, result.attempts]).toEqual(['crashed', 1]);
          expect(result.error.message).toContain(detail);
        }
      });

      const cyclic: Record<string, unknown> = { name: 'loop' };
      cyclic.self = cyclic;
      it.each([
        ['a cycle', { list: [cyclic] }, '/list/0/self refers back to itself (a cycle)'],
        ['a function', { run: () => 1 }, '/run is a function'],
        ['a BigInt', { big: 10n }, '/big is a BigInt'],
        ['a Map', new Map(), 'the output is a Map'],
        ['NaN', [1, Number.NaN], '/1 is NaN'],
        ['a symbol under keys holding "/"', { 'a/b': [{ 'c/d': Symbol('s') }] }, '/a/b/0/c/d is a symbol'],
      ])('reports an output holding %s as crashed, naming where', async (_label, output, where) => {
        const { tool } = recorded({ idempotent: true }, () => output);
        const result = failure(await managerWith(tool).execute({ id: 'c1', name: 'probe', arguments: {} }));
        expect(result.error.code).toBe('crashed');
        expect(result.error.message).toContain('returned an output that is not JSON');
        expect(result.error.message).toContain(where);
      });
    });
  });
}

function captureThrow(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
