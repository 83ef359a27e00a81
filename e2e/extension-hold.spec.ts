// Tab tools in hold mode (`untrusted: 'hold'`), in a real unpacked extension (e2e/extension-fixture)
// in headless Chromium: what a tab returns is held, a failure shows its code with its message held,
// and a held value passed to a tab tool crosses to the tab whole (its output held again).
import { expect, openHarness, openTestPage, PAGES, tabIdOf, tabTest as test } from './extension-helpers.js';

type HarnessGlobals = {
  ambi: typeof import('ambi-web/worker');
  harness: { runner: (options: Omit<import('ambi-web/worker').WorkerRunnerOptions, 'worker'>) => import('ambi-web/worker').WorkerRunner };
};

test('a tab’s results are held: the model reads handles, the tool receives the value, RunResult.held gives it back', async ({ context, ids }) => {
  const page = await openTestPage(context, '/plain.html');
  const harness = await openHarness(context, ids.harness);
  const tabId = await tabIdOf(harness, page.url());
  const outcome = await harness.evaluate(async (tabId) => {
    const { ambi, harness } = globalThis as unknown as HarnessGlobals;
    const runner = harness.runner({
      untrusted: 'hold',
      engine: ambi.scriptedEngine([
        {
          toolCalls: [
            { id: 'w1', name: 'where', arguments: {} },
            { id: 'f1', name: 'fails', arguments: {} },
          ],
        },
        { toolCalls: [{ id: 'e1', name: 'echo', arguments: { value: { $held: '$1' } } }] },
        'The tab is $1.',
      ]),
    });
    try {
      await runner.tabTools(tabId);
      const result = await runner.run('where is the tab?').result;
      const tools = result.messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, JSON.parse(m.content)]);
      const echoed = result.toolResults.find((r) => r.id === 'e1');
      return { tools, echoed: echoed?.ok ? echoed.output : echoed, held: result.held };
    } finally {
      runner.close();
    }
  }, tabId);
  const where = { url: `${PAGES}/plain.html`, title: 'Plain page', frame: false };
  expect(outcome.tools).toEqual([
    ['w1', { held: '$1', from: 'where', type: 'object', length: JSON.stringify(where).length }],
    ['f1', { ok: false, error: { code: 'tool_error', message: { held: '$2', from: 'fails', type: 'string', length: expect.any(Number) } } }],
    // The echo's output repeats its argument: held again.
    ['e1', { held: '$3', from: 'echo', type: 'object', length: expect.any(Number) }],
  ]);
  expect(outcome.echoed).toMatchObject({ value: where, plainPrototype: true });
  expect(outcome.held).toEqual([{ id: '$1', from: 'where', value: where }]);
});
