// The validation modes in Chromium: in the page and in the runner worker, 'no-eval' gives
// what 'auto' gives. (Under a real strict CSP: e2e/csp.spec.ts.)
import Ajv from 'ajv';
import { describe, expect, it, vi } from 'vitest';
import { defineTool, ToolManager, ToolRegistry, type ToolCall } from '../../src/index.js';
import { runnersClosedAfterEach } from '../support/worker-runners.js';

const { runnerWith } = runnersClosedAfterEach();

const add = defineTool({
  name: 'add',
  description: 'Add two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number', default: 10 }, op: { enum: ['add', 'sub'] } },
    required: ['a'],
    additionalProperties: false,
  },
  idempotent: true,
  call: ({ a, b, op }) => (op === 'sub' ? a - b : a + b),
});

const calls: ToolCall[] = [
  { id: 'c0', name: 'add', arguments: { a: 2, b: 3 } },
  { id: 'c1', name: 'add', arguments: { a: 2 } },
  { id: 'c2', name: 'add', arguments: { a: 'two', b: 3, c: 1, op: 'mul' } },
  { id: 'c3', name: 'add', arguments: {} },
];

const expected = [
  { ok: true, output: 5 },
  { ok: true, output: 12 },
  {
    ok: false,
    error: {
      code: 'invalid_arguments',
      message:
        'Invalid arguments for "add": arguments must NOT have additional properties (\'c\'); /a must be number; /op must be equal to one of the allowed values: "add", "sub"',
    },
  },
  { ok: false, error: { code: 'invalid_arguments', message: 'Invalid arguments for "add": arguments must have required property \'a\'' } },
];

describe('validation modes in Chromium', () => {
  it.each(['auto', 'no-eval'] as const)('a ToolManager on the page (%s)', async (validation) => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    try {
      const manager = new ToolManager(new ToolRegistry({ validation }).register({ ...add, parameters: structuredClone(add.parameters) }));
      const results = await Promise.all(calls.map((call) => manager.execute(call)));
      expect(results).toMatchObject(expected);
      // A tool's first calls are checked without compiling, in either mode (ajv compiles a busy tool's, in 'auto').
      expect(compile).not.toHaveBeenCalled();
    } finally {
      compile.mockRestore();
    }
  });

  it.each(['auto', 'no-eval'] as const)('a WorkerRunner, validating in the runner worker (%s)', async (validation) => {
    const runner = runnerWith([{ toolCalls: calls }, 'done'], { validation });
    const result = await runner.tool(add).run('add').result;
    expect(result.toolResults).toMatchObject(expected);
  });
});
