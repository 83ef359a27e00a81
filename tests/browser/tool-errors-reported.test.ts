// Through the WorkerRunner: a page tool's own failure is told to `onToolError` on the page, with
// what the tool threw (an Error, stack and all); the runner worker and the model get `crashed`.
import { afterEach, expect, it } from 'vitest';
import { createWorkerRunner, defineTool, scriptedEngine, ToolError } from '../../src/index.js';
import type { ToolErrorReport } from '../../src/extend/index.js';
import { openRunners } from '../support/worker-runners.js';

const runners = openRunners();
afterEach(() => runners.closeAll());

it('tells onToolError on the page what a page tool threw, and not of a ToolError', async () => {
  const reports: ToolErrorReport[] = [];
  const runner = runners.keep(
    createWorkerRunner({
      engine: scriptedEngine([
        {
          toolCalls: [
            { id: 'b', name: 'read_title', arguments: {} },
            { id: 'r', name: 'refusing', arguments: {} },
          ],
        },
        'Sorry.',
      ]),
      onToolError: (report) => reports.push(report),
    })
      .tool(
        defineTool({
          name: 'read_title',
          description: 'x',
          parameters: { type: 'object' },
          readOnly: true,
          call: () => (document.querySelector('#no-such-element') as HTMLElement).textContent,
        }),
      )
      .tool(
        defineTool({
          name: 'refusing',
          description: 'x',
          parameters: { type: 'object' },
          idempotent: false,
          call: () => {
            throw new ToolError('no such note');
          },
        }),
      ),
  );
  const result = await runner.run('go').result;
  expect(result.toolResults.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['crashed', 'tool_error']);
  expect(reports).toHaveLength(1);
  expect(reports[0]).toMatchObject({ tool: 'read_title', callId: 'b', attempt: 1 });
  expect(reports[0]!.error).toBeInstanceOf(TypeError);
  expect((reports[0]!.error as Error).stack).toContain('tool-errors-reported.test.ts');
});
