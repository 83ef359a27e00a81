// Code Mode's sandbox in Node (in-process): a model's program runs in QuickJS (WebAssembly),
// calls tools through the host, and gives back JSON and its console.log lines.
import { describe, expect, test } from 'vitest';
import { isAmbiError } from '../../src/errors/ambi-error.js';
import { ToolError } from '../../src/errors/tool-error.js';
import { runProgram } from '../../src/codemode/run-program.js';
import { opaqueValue, type ProgramCallContext, type ProgramOptions } from '../../src/codemode/types.js';
import type { JsonValue } from '../../src/core/types.js';

type Call = { name: string; args: JsonValue; index: number };

/** Tools that answer from `answer` and record each call. */
function recordingTools(names: string[], answer: (name: string, args: JsonValue, context: ProgramCallContext) => unknown = (_n, args) => args) {
  const calls: Call[] = [];
  return {
    calls,
    tools: {
      names,
      call: async (name: string, args: JsonValue, context: ProgramCallContext) => {
        calls.push({ name, args, index: context.index });
        return answer(name, args, context);
      },
    },
  };
}

const run = (code: string, options: Partial<ProgramOptions> & Pick<ProgramOptions, 'tools'>) => runProgram(code, options);
const failure = (code: string, options: Partial<ProgramOptions> & Pick<ProgramOptions, 'tools'>) =>
  runProgram(code, options).then(
    (output) => {
      throw new Error(`the program returned ${JSON.stringify(output)}`);
    },
    (error: unknown) => error as Error & { code: string; logs: string[]; line?: number },
  );

describe('a program', () => {
  test('is the body of an async function: top-level await and return, its calls in order with their index', async () => {
    const { tools, calls } = recordingTools(['add'], (_name, args) => (args as { a: number; b: number }).a + (args as { a: number; b: number }).b);
    const output = await run('const x = await tools.add({ a: 1, b: 2 });\nconst y = await tools.add({ a: x, b: 10 });\nreturn { x, y };', { tools });
    expect(output).toEqual({ result: { x: 3, y: 13 }, logs: [] });
    expect(calls).toEqual([
      { name: 'add', args: { a: 1, b: 2 }, index: 0 },
      { name: 'add', args: { a: 3, b: 10 }, index: 1 },
    ]);
  });

  test('calls tools whose names are not identifiers, in parallel with Promise.all', async () => {
    const { tools, calls } = recordingTools(['read-file', 'list files'], (name) => name.length);
    const output = await run("return await Promise.all([tools['read-file']({ path: 'a' }), tools['list files']()]);", { tools });
    expect(output.result).toEqual([9, 10]);
    expect(calls.map((c) => [c.name, c.args])).toEqual([
      ['read-file', { path: 'a' }],
      ['list files', {}],
    ]);
  });

  test('sees exactly the tools it was given: Object.keys(tools), and an unknown one is not a function', async () => {
    const { tools } = recordingTools(['a', 'b-c']);
    expect((await run('return Object.keys(tools);', { tools })).result).toEqual(['a', 'b-c']);
    const error = await failure('await tools.delete_everything({});', { tools });
    expect(error.code).toBe('program_error');
    expect(error.message).toMatch(/TypeError: .*not a function \(line 1\)/);
  });

  test('returns null when it returns nothing, and JSON of what it returns (functions and undefined dropped as JSON drops them)', async () => {
    const { tools } = recordingTools([]);
    expect((await run('const x = 1;', { tools })).result).toBeNull();
    expect((await run('return { a: undefined, f() {}, d: new Date(0), n: [NaN, 1] };', { tools })).result).toEqual({
      d: '1970-01-01T00:00:00.000Z',
      n: [null, 1],
    });
  });

  test('keeps its console.log lines, values shown as JSON', async () => {
    const { tools } = recordingTools([]);
    const output = await run("console.log('a', 1, { b: [2] });\nconsole.error(new TypeError('t'));\nconsole.info(undefined, null, 10n);", { tools });
    expect(output.logs).toEqual(['a 1 {"b":[2]}', 'TypeError: t', 'undefined null "10n"']);
  });
});

describe('a tool call that fails', () => {
  test("rejects inside the program with an Error whose code is the failure's: the program can catch it and go on", async () => {
    const { tools } = recordingTools(['send', 'plain'], (name) => {
      if (name === 'send') throw Object.assign(new Error('the person said no'), { code: 'denied' });
      throw new ToolError('the disk is full');
    });
    const output = await run(
      `const seen = [];
       try { await tools.send({}); } catch (e) { seen.push([e instanceof Error, e.code, e.message]); }
       try { await tools.plain({}); } catch (e) { seen.push([e.code, e.message]); }
       return seen;`,
      { tools },
    );
    expect(output.result).toEqual([
      [true, 'denied', 'the person said no'],
      ['tool_error', 'the disk is full'],
    ]);
  });

  test('an error without a code, or a thrown string, is tool_error; an output JSON cannot hold is invalid_output', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const { tools } = recordingTools(['a', 'b', 'c'], (name) => {
      if (name === 'a') throw new Error('plain');
      if (name === 'b') throw 'a string';
      return cyclic;
    });
    const output = await run(
      `const codes = [];
       for (const name of ['a', 'b', 'c']) { try { await tools[name]({}); } catch (e) { codes.push([e.code, e.message]); } }
       return codes;`,
      { tools },
    );
    const [a, b, c] = output.result as [string, string][];
    expect(a).toEqual(['tool_error', 'plain']);
    expect(b).toEqual(['tool_error', 'a string']);
    expect(c![0]).toBe('invalid_output');
    expect(c![1]).toMatch(/^The output of tools\["c"\] is not JSON: .*circular/i);
  });

  test('arguments JSON cannot hold reject before the host sees them: invalid_arguments', async () => {
    const { tools, calls } = recordingTools(['a']);
    const output = await run('try { await tools.a({ n: 1n }); } catch (e) { return e.code; }', { tools });
    expect(output.result).toBe('invalid_arguments');
    expect(calls).toEqual([]);
  });
});

describe('a program that fails', () => {
  test('a throw is program_error with its message and line, and the logs so far', async () => {
    const { tools } = recordingTools([]);
    const error = await failure("console.log('before');\nconst a = 1;\n\nthrow new RangeError('out of range: ' + a);", { tools });
    expect(isAmbiError(error, 'program_error')).toBe(true);
    expect(error.message).toBe('RangeError: out of range: 1 (line 4)');
    expect(error.line).toBe(4);
    expect(error.logs).toEqual(['before']);
  });

  test('a syntax error is program_error with its line', async () => {
    const { tools } = recordingTools([]);
    const error = await failure('const a = 1;\nconst b = (a;\n', { tools });
    expect(error.code).toBe('program_error');
    expect(error.message).toMatch(/^SyntaxError: .* \(line 2\)$/);
    expect(error.line).toBe(2);
  });

  test('a thrown value that is not an Error is shown as JSON', async () => {
    const { tools } = recordingTools([]);
    const error = await failure("throw { reason: 'no' };", { tools });
    expect(error.message).toBe('Uncaught {"reason":"no"}');
  });

  test('a program that awaits what nothing can settle ends at once with program_error, not at its deadline', async () => {
    const { tools } = recordingTools([]);
    const started = performance.now();
    const error = await failure('await new Promise(() => {});', { tools, timeoutMs: 60_000 });
    expect(error.code).toBe('program_error');
    expect(error.message).toMatch(/never|nothing can settle/);
    expect(performance.now() - started).toBeLessThan(30_000);
  });
});

describe('opaque values', () => {
  test('reach the program as objects it cannot read, and go back to tools (and out as the result) as their refs', async () => {
    const { tools, calls } = recordingTools(['fetch_page', 'summarize'], (name, args) =>
      name === 'fetch_page' ? opaqueValue({ $held: '$1' }, '[held $1 from fetch_page]') : { got: args },
    );
    const output = await run(
      `const page = await tools.fetch_page({ url: 'x' });
       console.log('page:', page, JSON.stringify(page), Object.keys(page).length, String(Object.getPrototypeOf(page)));
       const summary = await tools.summarize({ text: page, list: [page] });
       return { page, summary };`,
      { tools },
    );
    expect(calls[1]).toEqual({ name: 'summarize', args: { text: { $held: '$1' }, list: [{ $held: '$1' }] }, index: 1 });
    expect(output.logs).toEqual(['page: [held $1 from fetch_page] {} 0 null']);
    expect(output.result).toEqual({ page: { $held: '$1' }, summary: { got: { text: { $held: '$1' }, list: [{ $held: '$1' }] } } });
  });

  test('cannot be forged from plain data: an object shaped like a marker stays data', async () => {
    const { tools, calls } = recordingTools(['echo']);
    await run("await tools.echo({ a: { '$opaque-0': 0 }, b: { $held: '$9' } });", { tools });
    expect(calls[0]?.args).toEqual({ a: { '$opaque-0': 0 }, b: { $held: '$9' } });
  });
});

describe('options', () => {
  test('out of range or missing are refused with invalid_option before anything runs', async () => {
    const { tools } = recordingTools([]);
    for (const options of [{ timeoutMs: 0 }, { memoryBytes: 1000 }, { maxOutputChars: -1 }, { maxToolCalls: 1.5 }, { isolation: 'iframe' }]) {
      await expect(runProgram('return 1', { tools, ...(options as object) })).rejects.toMatchObject({ code: 'invalid_option' });
    }
    await expect(runProgram('return 1', { tools: { call: tools.call } as never })).rejects.toMatchObject({ code: 'invalid_option' });
    await expect(runProgram(42 as never, { tools })).rejects.toMatchObject({ code: 'invalid_option' });
  });

  test('an aborted signal stops it before it starts', async () => {
    const { tools } = recordingTools([]);
    await expect(runProgram('return 1', { tools, signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'aborted' });
  });
});
