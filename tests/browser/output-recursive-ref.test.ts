// Typed answers through the WorkerRunner, in real Chromium: an `output` schema whose `$ref` loops
// without going into the value is refused when the run starts, with the same code in both modes.
import { describe, expect, test } from 'vitest';
import type { RunEvent, ValidationMode } from '../../src/index.js';
import { runnersClosedAfterEach } from '../support/worker-runners.js';

const { runnerWith } = runnersClosedAfterEach();

const loop = { type: 'object', allOf: [{ $ref: '#' }] };
const tree = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } }, required: ['name'] };

describe('WorkerRunner.run(input, { output }) with a recursive $ref', () => {
  for (const validation of ['auto', 'no-eval'] as ValidationMode[]) {
    test(`a loop that stays on the same value: invalid_option before any model turn (${validation})`, async () => {
      // No replies: a model turn would fail the run with another error.
      const run = runnerWith([], { validation }).run('go', { output: loop });
      const events: RunEvent[] = [];
      for await (const event of run.events) events.push(event);
      const error = await run.result.catch((e) => e);
      expect(error).toMatchObject({ code: 'invalid_option', message: expect.stringContaining('$ref "#" refers back') });
      expect(events.some((e) => e.type === 'iteration_finished')).toBe(false);
    });

    test(`recursion through items: a nested answer is the output (${validation})`, async () => {
      const answer = { name: 'a', children: [{ name: 'b', children: [] }] };
      const result = await runnerWith([JSON.stringify(answer)], { validation }).run('go', { output: tree }).result;
      expect(result.output).toEqual(answer);
    });
  }
});
