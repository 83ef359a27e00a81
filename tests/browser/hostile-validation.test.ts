// Issue 13, validation, in Chromium through the WorkerRunner: a hostile model's deep
// arguments never fail a run in `no-eval` mode (the demo's and every strict-CSP page's),
// and what the model reads of an output, from the page or a tool worker, is JSON.stringify's.
import { describe, expect, it } from 'vitest';
import { defineTool, type ParametersSchema, type ScriptedReply } from '../../src/index.js';
import { runnersClosedAfterEach } from '../support/worker-runners.js';

const runners = runnersClosedAfterEach();

const runnerWith = (replies: ScriptedReply[], validation: 'auto' | 'no-eval' = 'no-eval') => runners.runnerWith(replies, { validation });

/** `{"child":{"child":…}}`, `levels` objects deep, as JSON text. */
const nestedText = (levels: number) => `${'{"child":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

const nest = defineTool({
  name: 'nest',
  description: 'Takes a tree',
  parameters: JSON.parse('{"type":"object","properties":{"child":{"$ref":"#"}},"additionalProperties":false}') as ParametersSchema,
  idempotent: true,
  call: () => 'ran',
});

const TOO_DEEP = 'Invalid arguments for "nest": arguments must NOT be nested more than 64 levels deep';

describe('deep arguments in the runner worker', () => {
  it.each(['no-eval', 'auto'] as const)('a ~3 KB argument 300 levels deep is refused as invalid_arguments, and the run goes on (%s)', async (validation) => {
    const replies: ScriptedReply[] = [
      {
        toolCalls: [
          { id: 'text', name: 'nest', arguments: nestedText(300) },
          { id: 'ok', name: 'nest', arguments: nestedText(64) },
        ],
      },
      'The tree was too deep.',
    ];
    const result = await runnerWith(replies, validation).tool(nest).run('go').result;
    expect(result.toolResults.map((r) => [r.id, r.ok ? r.output : r.error])).toEqual([
      ['text', { code: 'invalid_arguments', message: TOO_DEEP }],
      ['ok', 'ran'],
    ]);
    expect(result.text).toBe('The tree was too deep.');
  });

  it('an argument 1,000,000 levels deep (as JSON text) is refused too', async () => {
    const replies: ScriptedReply[] = [{ toolCalls: [{ id: 'huge', name: 'nest', arguments: nestedText(1_000_000) }] }, 'ok'];
    const result = await runnerWith(replies).tool(nest).run('go').result;
    expect(result.toolResults).toMatchObject([{ id: 'huge', ok: false, error: { code: 'invalid_arguments', message: TOO_DEEP } }]);
  }, 30_000);
});

describe('outputs across the worker boundary read as JSON.stringify reads them', () => {
  const expected = '{"data":{"__proto__":{"kept":true}},"s":"x","n":2,"b":false}';

  it('from a main-thread tool', async () => {
    const tricky = defineTool({
      name: 'tricky_output',
      description: 'x',
      parameters: { type: 'object' },
      idempotent: true,
      call: () => ({ data: JSON.parse('{"__proto__":{"kept":true}}'), s: new String('x'), n: new Number(2), b: new Boolean(false) }),
    });
    const result = await runnerWith([{ toolCalls: [{ id: 'c', name: 'tricky_output', arguments: {} }] }, 'ok'])
      .tool(tricky)
      .run('go').result;
    expect(result.toolResults.map((r) => JSON.stringify(r.ok ? r.output : r.error))).toEqual([expected]);
    expect(result.messages.find((m) => m.role === 'tool')?.content).toBe(`{"ok":true,"output":${expected}}`);
  });

  it('from a dedicated tool worker', async () => {
    const runner = runnerWith([{ toolCalls: [{ id: 'c', name: 'tricky_output', arguments: {} }] }, 'ok']);
    await runner.workerTools(() => new Worker(new URL('./fixtures/hostile-outputs.worker.ts', import.meta.url), { type: 'module' }));
    const result = await runner.run('go').result;
    expect(result.toolResults.map((r) => JSON.stringify(r.ok ? r.output : r.error))).toEqual([expected]);
    expect(result.messages.find((m) => m.role === 'tool')?.content).toBe(`{"ok":true,"output":${expected}}`);
  });

  it('a Proxy output (reactive state: it looks plain and will not clone) crosses as its JSON, from the page and from a tool worker', async () => {
    const proxied = defineTool({
      name: 'proxy_output',
      description: 'x',
      parameters: { type: 'object' },
      idempotent: true,
      call: () => new Proxy({ count: 1, items: ['a'] }, {}),
    });
    const fromPage = await runnerWith([{ toolCalls: [{ id: 'c', name: 'proxy_output', arguments: {} }] }, 'ok'])
      .tool(proxied)
      .run('go').result;
    const runner = runnerWith([{ toolCalls: [{ id: 'c', name: 'proxy_output', arguments: {} }] }, 'ok']);
    await runner.workerTools(() => new Worker(new URL('./fixtures/hostile-outputs.worker.ts', import.meta.url), { type: 'module' }));
    const fromWorker = await runner.run('go').result;
    for (const result of [fromPage, fromWorker]) {
      expect(result.toolResults).toMatchObject([{ ok: true, output: { count: 1, items: ['a'] } }]);
      expect(result.messages.find((m) => m.role === 'tool')?.content).toBe('{"ok":true,"output":{"count":1,"items":["a"]}}');
    }
  });
});
