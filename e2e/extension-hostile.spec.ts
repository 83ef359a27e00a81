// Tab tools attacked, in a real unpacked extension (e2e/extension-fixture) in headless Chromium:
// a tab that closes or navigates mid-call, a content script that never answers, a tool named
// `__proto__`, huge arguments and outputs, a frame that goes away, two pages at once, and the
// extension's CSP (no eval anywhere, with validation left to ambi-web).
import type { Page } from '@playwright/test';
import { expect, openHarness, openTestPage, PAGES, tabIdOf, test } from './extension-helpers.js';

interface CallOutcome {
  name: string;
  ok: boolean;
  code?: string;
  message?: string;
  output?: unknown;
  /** From the call's start to its result, in the runner's events. */
  ms: number;
}

interface RunOutcome {
  tools: string[];
  results: CallOutcome[];
  error?: { code: string; message: string };
}

/** In the harness: a runner whose scripted model makes `calls` in one reply, over tab `tabId`'s tools; what each call ended with. */
function runCalls(harness: Page, tabId: number, calls: Array<{ name: string; arguments: unknown }>, options: { frameId?: number; prefix?: string } = {}) {
  return harness.evaluate(
    async ({ tabId, calls, options }) => {
      const { ambi, harness } = globalThis as unknown as HarnessGlobals;
      const runner = harness.runner({ engine: ambi.scriptedEngine([{ toolCalls: calls }, 'done']) });
      try {
        const { tools } = await runner.tabTools(tabId, options);
        const run = runner.run('go');
        const started = new Map<string, number>();
        const results: CallOutcome[] = [];
        for await (const event of run.events) {
          if (event.type === 'tool_started') started.set(event.callId, performance.now());
          if (event.type === 'tool_finished') {
            const { result } = event;
            const ms = performance.now() - (started.get(result.id) ?? performance.now());
            results.push(result.ok ? { name: result.name, ok: true, output: result.output, ms } : { name: result.name, ok: false, ...result.error, ms });
          }
        }
        const error = await run.result.then(
          () => undefined,
          (e: { code: string; message: string }) => ({ code: e.code, message: e.message }),
        );
        return { tools, results, ...(error ? { error } : {}) };
      } catch (e) {
        const error = e as { code: string; message: string };
        return { tools: [], results: [], error: { code: error.code, message: error.message } };
      } finally {
        runner.close();
      }
    },
    { tabId, calls, options },
  ) as Promise<RunOutcome>;
}

type HarnessGlobals = {
  ambi: typeof import('ambi-web/worker');
  harness: {
    runner: (options: Omit<import('ambi-web/worker').WorkerRunnerOptions, 'worker'>) => import('ambi-web/worker').WorkerRunner;
    violations: unknown[];
    workerViolations: () => Promise<unknown[]>;
    probeEval: () => Promise<string>;
  };
};

test('a tab tool runs in the tab and its result comes back', async ({ context, ids }) => {
  const page = await openTestPage(context, '/plain.html');
  const harness = await openHarness(context, ids.harness);
  const tabId = await tabIdOf(harness, page.url());
  const outcome = await runCalls(harness, tabId, [{ name: 'where', arguments: {} }]);
  expect(outcome.tools).toContain('where');
  expect(outcome.results).toEqual([
    expect.objectContaining({ name: 'where', ok: true, output: { url: `${PAGES}/plain.html`, title: 'Plain page', frame: false } }),
  ]);
});
