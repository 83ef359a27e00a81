// Code Mode's sandbox as a hostile model would attack it, run unchanged in Node (in-process)
// and in Chromium (the sandbox's own dedicated worker, and in-process on the page).
import { describe, expect, it } from 'vitest';
import { runProgram } from '../../src/codemode/run-program.js';
import type { ProgramCallContext, ProgramOptions, ProgramOutput } from '../../src/codemode/types.js';
import type { JsonValue } from '../../src/core/types.js';

type Isolation = NonNullable<ProgramOptions['isolation']>;
type Failure = Error & { code: string; logs: string[]; line?: number };

interface Host {
  calls: { name: string; args: JsonValue; context: ProgramCallContext }[];
  tools: ProgramOptions['tools'];
}

/** Tools that record each call and answer with `answer` (the arguments back, by default). */
function host(names: string[], answer: (name: string, args: JsonValue) => unknown = (_name, args) => args): Host {
  const calls: Host['calls'] = [];
  return { calls, tools: { names, call: async (name, args, context) => (calls.push({ name, args, context }), answer(name, args)) } };
}

export function describeSandboxAttacks(label: string, isolation: Isolation): void {
  const run = (code: string, options: Omit<ProgramOptions, 'isolation'>): Promise<ProgramOutput> => runProgram(code, { ...options, isolation });
  const fail = (code: string, options: Omit<ProgramOptions, 'isolation'>): Promise<Failure> =>
    run(code, options).then(
      (output) => {
        throw new Error(`the program returned ${JSON.stringify(output).slice(0, 300)}`);
      },
      (error: unknown) => error as Failure,
    );

  describe(`the Code Mode sandbox under attack (${label})`, () => {
    it('reaches no host object: no fetch, process, document, WebAssembly, require, timers or storage; import() loads nothing', async () => {
      const { tools } = host(['probe']);
      const output = await run(
        `const names = ['fetch', 'process', 'document', 'window', 'self', 'WebAssembly', 'require', 'module', 'XMLHttpRequest', 'WebSocket',
           'importScripts', 'postMessage', 'navigator', 'location', 'setTimeout', 'setInterval', 'queueMicrotask', 'indexedDB', 'localStorage',
           'caches', 'crypto', 'Worker', 'Atomics', 'Deno', 'Bun', 'global', 'os', 'std'];
         const seen = names.filter((name) => typeof globalThis[name] !== 'undefined' || typeof eval('typeof ' + name + " === 'undefined' ? undefined : 1") !== 'undefined');
         let imported;
         try { await import('data:text/javascript,export default 1'); imported = 'loaded'; } catch (e) { imported = e.name; }
         let dynamic;
         try { await import('node:fs'); dynamic = 'loaded'; } catch (e) { dynamic = e.name; }
         return { seen, imported, dynamic, globals: Object.getOwnPropertyNames(globalThis).filter((n) => !/^[A-Z]/.test(n)).sort() };`,
        { tools },
      );
      expect(output.result).toEqual({
        seen: [],
        imported: 'ReferenceError',
        dynamic: 'ReferenceError',
        globals: [
          'console',
          'decodeURI',
          'decodeURIComponent',
          'encodeURI',
          'encodeURIComponent',
          'escape',
          'eval',
          'globalThis',
          'isFinite',
          'isNaN',
          'parseFloat',
          'parseInt',
          'tools',
          'undefined',
          'unescape',
        ],
      });
    });

    it("finds only the sandbox's own global through Function constructors and globalThis tricks", async () => {
      const { tools } = host(['probe']);
      const output = await run(
        `const escapes = [
           Function('return this')(),
           (function () {}).constructor('return this')(),
           tools.probe.constructor('return this')(),
           console.log.constructor('return globalThis')(),
           await Object.getPrototypeOf(async function () {}).constructor('return this')(),
           (0, eval)('this'),
           (() => this)(),
         ];
         return {
           same: escapes.map((g) => g === undefined || g === globalThis),
           fetch: escapes.map((g) => g && typeof g.fetch),
           toolsProto: Object.getPrototypeOf(tools),
           frozen: Object.isFrozen(tools) && Object.isFrozen(console),
           hostFunctions: tools.probe.call.constructor('return typeof hostCall + typeof hostLog')(),
         };`,
        { tools },
      );
      expect(output.result).toEqual({
        same: [true, true, true, true, true, true, true],
        fetch: ['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined'],
        toolsProto: null,
        frozen: true,
        hostFunctions: 'undefinedundefined',
      });
    });

    it('stops a tight loop at its deadline with program_timeout, a catch around it or not', async () => {
      const { tools } = host([]);
      for (const code of ['while (true) {}', 'for (;;) { try { while (true) {} } catch (e) {} }', 'for (;;) await null;']) {
        const error = await fail(code, { tools, timeoutMs: 200 });
        expect(error.code, code).toBe('program_timeout');
        expect(error.message).toContain('200 ms');
      }
    });

    it('counts only the time the program runs: waiting for a slow tool call is not part of its deadline', async () => {
      const { tools } = host(['slow'], () => new Promise((resolve) => setTimeout(() => resolve('done'), 600)));
      const output = await run('return [await tools.slow({}), await tools.slow({})];', { tools, timeoutMs: 300 });
      expect(output.result).toEqual(['done', 'done']);
    });

    it("a toJSON that never returns, in the program's result, is still stopped at the deadline", async () => {
      const { tools } = host([]);
      const error = await fail('return { toJSON() { while (true) {} } };', { tools, timeoutMs: 200 });
      expect(error.code).toBe('program_timeout');
    });

    it('ends at its return even when it left jobs that keep queueing themselves', async () => {
      const { tools } = host([]);
      const output = await run('(function again() { Promise.resolve().then(again); })();\nreturn 1;', { tools, timeoutMs: 2_000 });
      expect(output.result).toBe(1);
    });

    it('runs out of memory inside its limit: program_error naming the limit; the next program runs as usual', async () => {
      const { tools } = host([]);
      const error = await fail('const a = [];\nwhile (true) a.push(new Array(10000).fill(a.length));', { tools, memoryBytes: 8 * 1024 * 1024 });
      expect(error.code).toBe('program_error');
      expect(error.message).toMatch(/out of memory \(the program's memory limit is 8388608 bytes\)/);
      expect((await run("return 'x'.repeat(1000).length;", { tools })).result).toBe(1000);
    });

    it('the limit adds up many small allocations: a program that catches the failure has held about memoryBytes, no more', async () => {
      const { tools } = host([]);
      const output = await run(
        'const a = [];\ntry { while (true) a.push(new Array(1000).fill(a.length)); } catch (e) { const held = a.length; a.length = 0; return [e.message, held]; }',
        { tools, memoryBytes: 4 * 1024 * 1024 },
      );
      const [message, held] = output.result as [string, number];
      expect(message).toBe('out of memory');
      // 1,000 numbers take 8 KB: the 4 MiB past the instance's 16 MiB start hold at most 2,560 such
      // arrays; without the cap on the WebAssembly memory, hundreds of thousands (2 GiB).
      expect(held).toBeGreaterThan(400);
      expect(held).toBeLessThan(2_560);
    });

    it("a tool's answer too large for the sandbox's memory fails inside the program, which can catch it", async () => {
      const { tools } = host(['dump'], () => 'x'.repeat(5_000_000));
      const output = await run('try { return (await tools.dump({})).length; } catch (e) { return e.message; }', { tools, memoryBytes: 2 * 1024 * 1024 });
      expect(output.result).toBe('out of memory');
    });

    it('a string past the memory limit in one step fails the same way', async () => {
      const { tools } = host([]);
      const error = await fail("return 'x'.repeat(2 ** 28).length;", { tools, memoryBytes: 8 * 1024 * 1024 });
      expect(error.message).toMatch(/out of memory/);
    });

    it('a huge result is cut to maxOutputChars and given as text saying so', async () => {
      const { tools } = host([]);
      const output = await run("return { big: 'x'.repeat(1000000) };", { tools, maxOutputChars: 1000 });
      expect(typeof output.result).toBe('string');
      expect((output.result as string).startsWith('{"big":"xxx')).toBe(true);
      expect(output.result as string).toMatch(/… \[cut: 999\d{3} more characters\]$/);
      expect((output.result as string).length).toBeLessThan(1100);
    });

    it('a flood of console.log keeps maxLogLines lines and counts the rest; a huge line is cut', async () => {
      const { tools } = host([]);
      const flood = await run('for (let i = 0; i < 100000; i++) console.log(i);\nreturn 1;', { tools, maxLogLines: 5 });
      expect(flood.logs).toEqual(['0', '1', '2', '3', '4', '[99995 more console.log lines cut]']);
      const huge = await run("console.log('y'.repeat(1000000));\nconsole.log('next');", { tools, maxOutputChars: 100 });
      expect(huge.logs[0]).toMatch(/^y{100}… \[cut/);
      expect(huge.logs).toHaveLength(2);
      expect(huge.logs[1]).toBe('[1 more console.log lines cut]');
    });

    it('a flood of tool calls reaches the host maxToolCalls times; the rest reject with too_many_calls', async () => {
      const { tools, calls } = host(['ping'], () => 'pong');
      const output = await run(
        `const all = [];
         for (let i = 0; i < 5000; i++) all.push(tools.ping({ i }).catch((e) => e.code));
         const answers = await Promise.all(all);
         return [answers.filter((a) => a === 'pong').length, answers.filter((a) => a === 'too_many_calls').length];`,
        { tools, maxToolCalls: 50 },
      );
      expect(output.result).toEqual([50, 4950]);
      expect(calls).toHaveLength(50);
      expect(calls.map((c) => c.context.index)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    });

    it('deep recursion throws inside the program (catchable); uncaught, it is program_error', async () => {
      const { tools } = host([]);
      for (const recursion of [
        'function f(n) { return f(n + 1) + 1; }',
        'function f(n) { return [n].map(() => f(n + 1))[0]; }',
        'function f(n) { return JSON.parse(JSON.stringify({ n }), () => f(n + 1)); }',
        'const f = (n) => ({ toString: () => f(n + 1) + 1 }).toString();',
      ]) {
        const caught = await run(`${recursion}\ntry { f(0); } catch (e) { return e.message; }`, { tools });
        expect(caught.result, recursion).toMatch(/stack overflow|call stack/i);
      }
      const error = await fail('function f(n) { return f(n + 1) + 1; }\nf(0);', { tools });
      expect(error.code).toBe('program_error');
      expect(error.message).toMatch(/stack/i);
    });

    it('data or source nested deeper than the interpreter checks is program_error, and the sandbox runs the next program', async () => {
      const { tools } = host([]);
      for (const code of [
        "JSON.parse('['.repeat(100000) + ']'.repeat(100000));",
        'let o = []; for (let i = 0; i < 100000; i++) o = [o]; return JSON.stringify(o).length;',
        "eval('['.repeat(100000) + ']'.repeat(100000));",
        `return ${'['.repeat(20000)}${']'.repeat(20000)};`,
      ]) {
        const error = await fail(code, { tools });
        expect(error.code, code.slice(0, 60)).toBe('program_error');
        expect(error.message).toMatch(/stack|nest/i);
      }
      expect((await run('return [1, [2, [3]]];', { tools })).result).toEqual([1, [2, [3]]]);
    });

    it('__proto__ as a key crosses as data both ways, and as a tool name it is a tool; nothing is polluted', async () => {
      const { tools, calls } = host(['__proto__', 'echo'], (name) =>
        name === '__proto__' ? 'proto tool' : JSON.parse('{"__proto__": {"polluted": true}, "ok": 1}'),
      );
      const output = await run(
        `const sent = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}');
         const back = await tools.echo(sent);
         return { tool: await tools['__proto__']({}), keys: Object.keys(back), polluted: ({}).polluted ?? null, protoOfBack: Object.getPrototypeOf(back) === Object.prototype, back };`,
        { tools },
      );
      const args = calls[0]!.args as Record<string, unknown>;
      expect(Object.keys(args)).toEqual(['__proto__', 'a']);
      expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(output.result).toMatchObject({ tool: 'proto tool', keys: ['__proto__', 'ok'], polluted: null, protoOfBack: true });
      const back = (output.result as { back: Record<string, unknown> }).back;
      expect(Object.keys(back)).toEqual(['__proto__', 'ok']);
      expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    });

    it("a program that rewrites JSON, Promise, WeakMap, Object and Array's methods cannot change what crosses the bridge", async () => {
      const { tools, calls } = host(['echo']);
      const output = await run(
        `JSON.stringify = () => '"forged"'; JSON.parse = () => 'forged';
         Object.freeze = (o) => o; Object.defineProperty = () => {};
         WeakMap.prototype.get = () => 0; WeakMap.prototype.has = () => true;
         Array.prototype.join = () => 'forged'; Promise.prototype.then = function () { return this; };
         const back = await tools.echo({ a: [1, 2] });
         console.log('a', 1);
         return back;`,
        { tools },
      );
      expect(calls[0]!.args).toEqual({ a: [1, 2] });
      expect(output).toEqual({ result: { a: [1, 2] }, logs: ['a 1'] });
    });

    it('a tool call that never settles: abort ends the program at once and aborts the call', async () => {
      let started: (context: ProgramCallContext) => void = () => {};
      const callStarted = new Promise<ProgramCallContext>((resolve) => (started = resolve));
      const tools = {
        names: ['hang'],
        call: (_name: string, _args: JsonValue, context: ProgramCallContext) => (started(context), new Promise<never>(() => {})),
      };
      const controller = new AbortController();
      const program = fail('await tools.hang({});\nreturn 1;', { tools, signal: controller.signal, timeoutMs: 60_000 });
      const context = await callStarted;
      controller.abort();
      const error = await program;
      expect(error.code).toBe('aborted');
      expect(context.signal.aborted).toBe(true);
    });

    it('the calls still in flight when the program returns are aborted', async () => {
      const contexts: ProgramCallContext[] = [];
      const tools = {
        names: ['hang'],
        call: (_name: string, _args: JsonValue, context: ProgramCallContext) => (contexts.push(context), new Promise<never>(() => {})),
      };
      const output = await run('tools.hang({}); tools.hang({});\nreturn 1;', { tools });
      expect(output.result).toBe(1);
      await expect.poll(() => contexts.length).toBe(2);
      expect(contexts.every((c) => c.signal.aborted)).toBe(true);
    });
  });
}
