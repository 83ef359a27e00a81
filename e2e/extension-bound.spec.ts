// A tab call is bound to the page it was proposed and approved for, in a real unpacked extension
// (e2e/extension-fixture) in headless Chromium: the person approves `stamp` while the tab shows one
// page, the tab goes to another, and the call ends `tab_gone` without reaching the new page. The
// same holds without approval, for a call that waits for a slot while the tab navigates.
import type { Page } from '@playwright/test';
import { contentScriptsReady, expect, openHarness, openTestPage, PAGES, tabIdOf, tabTest as test } from './extension-helpers.js';

type HarnessGlobals = {
  ambi: typeof import('ambi-web/worker');
  harness: { runner: (options: Omit<import('ambi-web/worker').WorkerRunnerOptions, 'worker'>) => import('ambi-web/worker').WorkerRunner };
  pending?: { run: import('ambi-web/worker').Run; runner: import('ambi-web/worker').WorkerRunner; results: Promise<Outcome[]> };
};

interface Outcome {
  name: string;
  ok: boolean;
  code?: string;
  message?: string;
  output?: unknown;
}

/** The page's <html> data attribute `key` (the harness content script writes what its tools did there). */
const mark = (page: Page, key: string) => page.evaluate((k) => document.documentElement.dataset[k] ?? null, key);

/**
 * In the harness: start a run whose scripted model calls `stamp` on tab `tabId`; resolves with the
 * card's call (its target included) once the approval is asked. The run waits in `globalThis.pending`.
 */
function proposeStamp(harness: Page, tabId: number, text: string) {
  return harness.evaluate(
    async ({ tabId, text }) => {
      const globals = globalThis as unknown as HarnessGlobals;
      const runner = globals.harness.runner({
        engine: globals.ambi.scriptedEngine([{ toolCalls: [{ id: 'stamp-1', name: 'stamp', arguments: { text } }] }, 'done']),
      });
      await runner.tabTools(tabId);
      const run = runner.run('Stamp the page');
      let card!: (call: unknown) => void;
      const asked = new Promise<unknown>((resolve) => (card = resolve));
      const results = (async () => {
        const outcomes: Outcome[] = [];
        for await (const event of run.events) {
          if (event.type === 'approval_requested') card(event.call);
          if (event.type === 'tool_finished') {
            const { result } = event;
            outcomes.push(result.ok ? { name: result.name, ok: true, output: result.output } : { name: result.name, ok: false, ...result.error });
          }
        }
        return outcomes;
      })();
      globals.pending = { run, runner, results };
      return asked as Promise<{ id: string; target?: Record<string, unknown> }>;
    },
    { tabId, text },
  );
}

/** Approve the waiting card and wait for the run's results. */
function approveAndFinish(harness: Page) {
  return harness.evaluate(async () => {
    const { pending } = globalThis as unknown as HarnessGlobals;
    pending!.run.approve('stamp-1');
    const outcomes = await pending!.results;
    pending!.runner.close();
    return outcomes;
  });
}

async function setUp(context: import('@playwright/test').BrowserContext, harnessId: string) {
  const page = await openTestPage(context, '/plain.html');
  const harness = await openHarness(context, harnessId);
  const tabId = await tabIdOf(harness, page.url());
  return { page, harness, tabId };
}

test.describe('a tab call bound to the page it was proposed for', () => {
  test('the card names the page; approved there, the call runs there', async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    const call = await proposeStamp(harness, tabId, 'hello');
    expect(call.target).toEqual({
      tabId,
      frameId: 0,
      documentId: expect.any(String),
      origin: PAGES,
      url: `${PAGES}/plain.html`,
      title: 'Plain page',
    });
    expect(await approveAndFinish(harness)).toEqual([{ name: 'stamp', ok: true, output: { stamped: 'hello', url: `${PAGES}/plain.html` } }]);
    expect(await mark(page, 'stamped')).toBe('hello');
  });

  test('a navigation between the card and its approval ends the call tab_gone; the new page never gets it', async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    const call = await proposeStamp(harness, tabId, 'for the plain page');
    // The tab goes on to another page of the same site, whose content script serves the same tools.
    await page.goto(`${PAGES}/next.html`);
    await contentScriptsReady(harness, tabId);
    const outcomes = await approveAndFinish(harness);
    expect(outcomes).toEqual([
      expect.objectContaining({ name: 'stamp', ok: false, code: 'tab_gone', message: expect.stringContaining(`${PAGES}/plain.html`) }),
    ]);
    expect(await mark(page, 'stampRuns')).toBeNull();
    expect(await mark(page, 'stamped')).toBeNull();
    expect(call.target?.url).toBe(`${PAGES}/plain.html`);
  });

  test('without approval too: a call waiting for a slot while the tab navigates ends tab_gone, not on the new page', async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    // One slot, held by a tool of the panel's own until the test lets go: `tap`, proposed with it, waits.
    const pending = harness.evaluate(async (tabId) => {
      const globals = globalThis as unknown as HarnessGlobals & { letGo?: () => void };
      const { ambi } = globals;
      const runner = globals.harness.runner({
        concurrency: 1,
        engine: ambi.scriptedEngine([
          {
            toolCalls: [
              { name: 'hold', arguments: {} },
              { name: 'tap', arguments: {} },
            ],
          },
          'done',
        ]),
      });
      const held = new Promise<void>((resolve) => (globals.letGo = resolve));
      runner.tool(
        ambi.defineTool({
          name: 'hold',
          description: 'Holds the slot',
          parameters: { type: 'object', properties: {} },
          idempotent: false,
          call: () => held.then(() => 'let go'),
        }),
      );
      // The definitions accepted: nothing asks for `tap` (offered by the tab, they would expose the request, and `tap` would wait for a card).
      await runner.tabTools(tabId, { acceptDefinitions: true });
      const run = runner.run('go');
      const outcomes: Outcome[] = [];
      for await (const event of run.events) {
        if (event.type !== 'tool_finished') continue;
        const { result } = event;
        outcomes.push(result.ok ? { name: result.name, ok: true, output: result.output } : { name: result.name, ok: false, ...result.error });
      }
      runner.close();
      return outcomes;
    }, tabId);
    // `tap` was proposed: its page was asked for. Then the tab goes on, and the slot is let go.
    await expect.poll(() => mark(page, 'whereAsked')).toBe('1');
    await page.goto(`${PAGES}/next.html`);
    await contentScriptsReady(harness, tabId);
    await harness.evaluate(() => (globalThis as unknown as { letGo: () => void }).letGo());
    const outcomes = await pending;
    expect(outcomes).toEqual([
      { name: 'hold', ok: true, output: 'let go' },
      // Bound to the plain page when it was proposed (or, had the navigation beaten the page's answer, not placed at all).
      expect.objectContaining({ name: 'tap', ok: false, code: 'tab_gone' }),
    ]);
    expect(await mark(page, 'tapRuns')).toBeNull();
  });

  test('a call proposed after the navigation is bound to the new page and runs there', async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    await page.goto(`${PAGES}/next.html`);
    await contentScriptsReady(harness, tabId);
    const call = await proposeStamp(harness, tabId, 'next');
    expect(call.target).toMatchObject({ url: `${PAGES}/next.html`, title: 'Next page' });
    expect(await approveAndFinish(harness)).toEqual([{ name: 'stamp', ok: true, output: { stamped: 'next', url: `${PAGES}/next.html` } }]);
  });

  test("a page's 1 MB title and address: the call's target keeps their first 200 and 2 000 characters", async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    await page.evaluate(() => {
      document.title = `Approve me ${'t'.repeat(1024 * 1024)}`;
      history.replaceState(null, '', `/plain.html?${'q'.repeat(100_000)}`);
    });
    const call = await proposeStamp(harness, tabId, 'long');
    expect(String(call.target?.title)).toHaveLength(200);
    expect(String(call.target?.url)).toHaveLength(2_000);
    expect(String(call.target?.url).startsWith(`${PAGES}/plain.html?qqq`)).toBe(true);
    // The same document (history.replaceState is no navigation): the call runs.
    expect(await approveAndFinish(harness)).toEqual([expect.objectContaining({ name: 'stamp', ok: true })]);
  });
});
