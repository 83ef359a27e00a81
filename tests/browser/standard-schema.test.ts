// Standard Schema (zod) tools across the worker boundary, in Chromium: the runner worker
// validates with the JSON Schema, the tool's own realm (the page, a tool worker) again with zod.
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool, type ScriptedReply, type WorkerRunner } from '../../src/index.js';
import { runnersClosedAfterEach } from '../support/worker-runners.js';

const runners = runnersClosedAfterEach();

const calls = (...list: Array<[name: string, args: unknown]>): ScriptedReply => ({
  toolCalls: list.map(([name, args], i) => ({ id: `c${i}`, name, arguments: args })),
});

const runner = (replies: ScriptedReply[], validation?: 'auto' | 'no-eval'): WorkerRunner => runners.runnerWith(replies, validation ? { validation } : {});

describe('a zod tool on the page, called from the runner worker', () => {
  it.each(['auto', 'no-eval'] as const)('validates in the worker by JSON Schema, on the page by zod (%s)', async (validation) => {
    const call = vi.fn(({ a, b }: { a: number; b: number }) => a + b);
    const add = defineTool({
      name: 'add',
      description: 'Add two positive numbers',
      parameters: z.object({ a: z.number().positive(), b: z.coerce.number() }),
      idempotent: true,
      call,
    });
    const result = await runner([calls(['add', { a: 2, b: 3 }], ['add', { a: 'x', b: 1 }], ['add', { a: -1, b: 1 }], ['add', { a: 1 }]), 'done'], validation)
      .tool(add)
      .run('add').result;
    expect(result.toolResults).toMatchObject([
      { ok: true, output: 5, attempts: 1 },
      // Refused in the runner worker by the JSON Schema zod wrote: JSON Schema wording.
      { ok: false, attempts: 0, error: { code: 'invalid_arguments', message: 'Invalid arguments for "add": /a must be number' } },
      // The JSON Schema lets it through; zod on the page refuses it: same format, zod's words.
      { ok: false, attempts: 0, error: { code: 'invalid_arguments', message: 'Invalid arguments for "add": /a must be > 0' } },
      { ok: false, attempts: 0, error: { code: 'invalid_arguments', message: 'Invalid arguments for "add": arguments must have required property \'b\'' } },
    ]);
    expect(call).toHaveBeenCalledTimes(1);
  });

  it('hands the call the output of the schema (transforms and coercions applied on the page)', async () => {
    const seen: unknown[] = [];
    const words = defineTool({
      name: 'words',
      description: 'Count words',
      parameters: z.object({ text: z.string().transform((s) => s.split(/\s+/)), limit: z.coerce.number().default(2) }),
      idempotent: true,
      call: (args) => {
        seen.push(args);
        return args.text.slice(0, args.limit);
      },
    });
    const result = await runner([calls(['words', { text: 'one two three' }]), 'done'])
      .tool(words)
      .run('count').result;
    expect(result.toolResults).toMatchObject([{ ok: true, output: ['one', 'two'] }]);
    expect(seen).toEqual([{ text: ['one', 'two', 'three'], limit: 2 }]);
  });
});

describe('a zod tool in a dedicated tool worker', () => {
  it('validates again with zod in the tool worker, refinements and transforms included', async () => {
    const created = runner(
      [calls(['slug', { title: '  Hello World  ' }], ['slug', { title: 'a forbidden title' }], ['slug', { title: '' }], ['slug', { title: 5 }]), 'done'],
      'no-eval',
    );
    await created.workerTools(() => new Worker(new URL('./fixtures/standard-schema.worker.ts', import.meta.url), { type: 'module' }));
    const result = await created.run('slugs').result;
    expect(result.toolResults).toMatchObject([
      { ok: true, output: { slug: 'hello-world', realm: 'worker' } },
      { ok: false, attempts: 0, error: { code: 'invalid_arguments', message: 'Invalid arguments for "slug": /title that title is not allowed' } },
      { ok: false, attempts: 0, error: { code: 'invalid_arguments', message: 'Invalid arguments for "slug": /title must NOT have fewer than 1 characters' } },
      { ok: false, attempts: 0, error: { code: 'invalid_arguments', message: 'Invalid arguments for "slug": /title must be string' } },
    ]);
  });
});
