// Issue 13 (item 4 through the worker): a failed run's error keeps its class name and data fields across the boundary.
import { describe, expect, it } from 'vitest';
import { createWorkerRunner, defineTool, isAmbiError, scriptedEngine, type RunEvent } from '../../src/index.js';
import { runnersClosedAfterEach } from '../support/worker-runners.js';

const { keep } = runnersClosedAfterEach();

describe('WorkerRunner: a failed run', () => {
  it('max_iterations after an effect: the page gets the MaxIterationsError with every call that ran', async () => {
    let payments = 0;
    const pay = defineTool({
      name: 'send_payment',
      description: 'x',
      parameters: { type: 'object', properties: {} },
      idempotent: false,
      call: () => `payment ${++payments}`,
    });
    const runner = createWorkerRunner({
      engine: scriptedEngine([
        { toolCalls: [{ id: 'p1', name: 'send_payment', arguments: {} }] },
        { toolCalls: [{ id: 'p2', name: 'send_payment', arguments: {} }] },
      ]),
    }).tool(pay);
    keep(runner);
    const run = runner.run('pay', { maxIterations: 2 });
    const events: RunEvent[] = [];
    for await (const event of run.events) events.push(event);
    const error = await run.result.catch((e: unknown) => e);

    expect(payments).toBe(1);
    expect(isAmbiError(error, 'max_iterations')).toBe(true);
    expect(error).toMatchObject({ name: 'MaxIterationsError', maxIterations: 2, toolResults: [{ id: 'p1', ok: true, output: 'payment 1' }] });
    const failed = events.find((e) => e.type === 'run_failed');
    expect(failed).toMatchObject({ error: { code: 'max_iterations', name: 'MaxIterationsError', details: { toolResults: [{ id: 'p1' }] } } });
  });
});

describe('WorkerRunner: leaf options', () => {
  it.each([0, -1, 1.5, Number.NaN])('refuses leaf.maxDepth %s on the page, before any worker starts', (maxDepth) => {
    expect(() => createWorkerRunner({ engine: scriptedEngine(['x']), leaf: { maxDepth } })).toThrow(expect.objectContaining({ code: 'invalid_option' }));
  });
});
