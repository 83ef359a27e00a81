// Tab tools attacked, in a real unpacked extension (e2e/extension-fixture) in headless Chromium:
// a tab that closes or navigates mid-call, a content script that never answers, a tool named
// `__proto__`, huge arguments and outputs, a frame that goes away, two pages at once, and the
// extension's CSP (no eval anywhere, with validation left to ambi-web).
import type { Page } from '@playwright/test';
import { expect, openHarness, openTestPage, PAGES, tabIdOf, tabTest as test } from './extension-helpers.js';

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
  /** The names of the calls that asked for approval. */
  approvals: string[];
  /** What each approval said the model had read (`event.untrusted.sources`), in the same order. */
  approvalSources: unknown[];
  error?: { code: string; message: string };
}

interface RunCallsOptions {
  frameId?: number;
  prefix?: string;
  listTimeoutMs?: number;
  acceptDefinitions?: boolean;
  /** Abort the run this long after its first call started. */
  abortAfterMs?: number;
}

/**
 * In the harness: a runner whose scripted model makes `calls` in one reply, over tab `tabId`'s
 * tools; what each call ended with. Approvals asked are recorded and granted.
 */
function runCalls(harness: Page, tabId: number, calls: Array<{ name: string; arguments: unknown }>, options: RunCallsOptions = {}) {
  return harness.evaluate(
    async ({ tabId, calls, options }) => {
      const { ambi, harness } = globalThis as unknown as HarnessGlobals;
      const runner = harness.runner({ engine: ambi.scriptedEngine([{ toolCalls: calls }, 'done']) });
      const { abortAfterMs, ...tabOptions } = options;
      try {
        const { tools } = await runner.tabTools(tabId, tabOptions);
        const run = runner.run('go');
        const started = new Map<string, number>();
        const results: CallOutcome[] = [];
        const approvals: string[] = [];
        const approvalSources: unknown[] = [];
        for await (const event of run.events) {
          if (event.type === 'tool_started') {
            started.set(event.callId, performance.now());
            if (abortAfterMs !== undefined && started.size === 1) setTimeout(() => run.abort('stopped by the test'), abortAfterMs);
          }
          if (event.type === 'approval_requested') {
            approvals.push(event.call.name);
            approvalSources.push(event.untrusted?.sources ?? null);
            run.approve(event.call.id);
          }
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
        return { tools, results, approvals, approvalSources, ...(error ? { error } : {}) };
      } catch (e) {
        const error = e as { code: string; message: string };
        return { tools: [], results: [], approvals: [], approvalSources: [], error: { code: error.code, message: error.message } };
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

/** The page's <html> data attribute `key` (the harness content script writes what its tools saw there). */
const mark = (page: Page, key: string) => page.evaluate((k) => document.documentElement.dataset[k] ?? null, key);

/** A tab showing `path`, the harness, and the tab's id. */
async function setUp(context: import('@playwright/test').BrowserContext, harnessId: string, path = '/plain.html') {
  const page = await openTestPage(context, path);
  const harness = await openHarness(context, harnessId);
  const tabId = await tabIdOf(harness, page.url());
  return { page, harness, tabId };
}

test.describe('a tab that goes away', () => {
  test('closing the tab mid-call ends the call with tab_gone at once', async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    const pending = runCalls(harness, tabId, [{ name: 'slow', arguments: {} }]);
    await expect.poll(() => mark(page, 'slowStarted')).toBe('1');
    const closedAt = Date.now();
    await page.close();
    const outcome = await pending;
    const endedAfterClose = Date.now() - closedAt;
    expect(outcome.results).toEqual([expect.objectContaining({ name: 'slow', ok: false, code: 'tab_gone' })]);
    expect(outcome.results[0]!.message).toContain(`Tab ${tabId}`);
    // The tool's own timeout is 60 s: the call ended because the tab went, not because time ran out.
    expect(endedAfterClose).toBeLessThan(10_000);
    expect(outcome.results[0]!.ms).toBeLessThan(60_000);
  });

  test('a navigation mid-call ends the call with tab_gone, and the tools work on the next page', async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    const pending = runCalls(harness, tabId, [{ name: 'slow', arguments: {} }]);
    await expect.poll(() => mark(page, 'slowStarted')).toBe('1');
    await page.goto(`${PAGES}/next.html`);
    expect((await pending).results).toEqual([expect.objectContaining({ name: 'slow', ok: false, code: 'tab_gone' })]);
    await expect
      .poll(async () => (await runCalls(harness, tabId, [{ name: 'where', arguments: {} }])).results[0]?.output)
      .toEqual({
        url: `${PAGES}/next.html`,
        title: 'Next page',
        frame: false,
      });
  });

  test('a call to a tab that is gone ends with tab_gone; listing a closed tab rejects with tab_gone', async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    // Registered while the tab is there, called after it closed.
    await harness.evaluate(async (tabId) => {
      const { ambi, harness } = globalThis as unknown as HarnessGlobals;
      const runner = harness.runner({ engine: ambi.scriptedEngine([{ toolCalls: [{ name: 'where', arguments: {} }] }, 'done']) });
      await runner.tabTools(tabId);
      Object.assign(globalThis, { kept: runner });
    }, tabId);
    await page.close();
    const after = await harness.evaluate(async (tabId) => {
      const { harness } = globalThis as unknown as HarnessGlobals;
      const runner = (globalThis as unknown as { kept: import('ambi-web/worker').WorkerRunner }).kept;
      const run = runner.run('go');
      let call: { code: string; message: string } | undefined;
      for await (const event of run.events) if (event.type === 'tool_finished' && !event.result.ok) call = event.result.error;
      runner.close();
      const lister = harness.runner({ engine: (globalThis as unknown as HarnessGlobals).ambi.scriptedEngine([]) });
      const listing = await lister.tabTools(tabId).then(
        () => 'listed',
        (e: { code: string }) => e.code,
      );
      lister.close();
      return { call, listing };
    }, tabId);
    expect(after.call?.code).toBe('tab_gone');
    expect(after.listing).toBe('tab_gone');
  });
});

test.describe('a call crosses with its abort and its timeout', () => {
  test("aborting the run aborts the tool's ctx.signal in the tab", async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    const outcome = await runCalls(harness, tabId, [{ name: 'slow', arguments: {} }], { abortAfterMs: 300 });
    expect(outcome.error?.code).toBe('aborted');
    await expect.poll(() => mark(page, 'slowAborted')).toBe('AbortError');
  });

  test('a tab tool that ignores its signal ends with timeout at its own timeoutMs', async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    const outcome = await runCalls(harness, tabId, [{ name: 'stuck', arguments: {} }]);
    expect(outcome.results).toEqual([expect.objectContaining({ name: 'stuck', ok: false, code: 'timeout' })]);
    expect(await mark(page, 'stuckStarted')).toBe('1'); // not idempotent: never tried again
  });
});

test.describe('a content script that never answers', () => {
  test('listing its tools rejects with tab_unavailable after listTimeoutMs', async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness, '/plain.html?silent');
    const outcome = await runCalls(harness, tabId, [], { listTimeoutMs: 500 });
    expect(outcome.error?.code).toBe('tab_unavailable');
    expect(outcome.error?.message).toContain('within 500 ms');
    expect(await mark(page, 'silentRequests')).toBe('1');
  });

  test("a call it swallows ends at the tool's timeout", async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    // Tools listed from a page that answers; the call reaches one that never does.
    await harness.evaluate(async (tabId) => {
      const { ambi, harness } = globalThis as unknown as HarnessGlobals;
      const runner = harness.runner({ engine: ambi.scriptedEngine([{ toolCalls: [{ name: 'stuck', arguments: {} }] }, 'done']) });
      await runner.tabTools(tabId);
      Object.assign(globalThis, { kept: runner });
    }, tabId);
    await page.goto(`${PAGES}/plain.html?silent`);
    await expect.poll(() => page.evaluate(() => document.readyState)).toBe('complete');
    const code = await harness.evaluate(async () => {
      const runner = (globalThis as unknown as { kept: import('ambi-web/worker').WorkerRunner }).kept;
      const run = runner.run('go');
      let code: string | undefined;
      for await (const event of run.events) {
        // A request that offers tab tools is exposed (their definitions come from the tab): the call is asked first.
        if (event.type === 'approval_requested') run.approve(event.call.id);
        if (event.type === 'tool_finished' && !event.result.ok) code = event.result.error.code;
      }
      runner.close();
      return code;
    });
    expect(code).toBe('timeout');
    expect(await mark(page, 'silentRequests')).toBe('1');
  });

  test('a tab with no content script of the extension rejects with tab_unavailable at once', async ({ context, ids }) => {
    const harness = await openHarness(context, ids.harness);
    // The harness's own tab: an extension page, where no content script runs.
    const tabId = await tabIdOf(harness, harness.url());
    const outcome = await runCalls(harness, tabId, []);
    expect(outcome.error?.code).toBe('tab_unavailable');
  });
});

test.describe('hostile names, values and sizes', () => {
  test('a tool named __proto__ is registered and called by that name, with a prefix too', async ({ context, ids }) => {
    const { harness, tabId } = await setUp(context, ids.harness);
    const plain = await runCalls(harness, tabId, [{ name: '__proto__', arguments: {} }]);
    expect(plain.tools).toContain('__proto__');
    expect(plain.results).toEqual([expect.objectContaining({ name: '__proto__', ok: true, output: 'proto tool ran' })]);
    const prefixed = await runCalls(harness, tabId, [{ name: 'tab___proto__', arguments: {} }], { prefix: 'tab' });
    expect(prefixed.tools).toEqual(expect.arrayContaining(['tab___proto__', 'tab_where']));
    expect(prefixed.results).toEqual([expect.objectContaining({ ok: true, output: 'proto tool ran' })]);
  });

  test('arguments with __proto__ keys reach the tab as own data, nothing polluted', async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    const text = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}';
    // Made from JSON in the harness (as a model's arguments are): Playwright's own transport would drop the key.
    const outcome = await harness.evaluate(
      async ({ tabId, text }) => {
        const { ambi, harness } = globalThis as unknown as HarnessGlobals;
        const runner = harness.runner({
          engine: ambi.scriptedEngine([{ toolCalls: [{ name: 'echo', arguments: JSON.parse(`{"value": ${text}}`) }] }, 'done']),
        });
        await runner.tabTools(tabId);
        const result = (await runner.run('go').result).toolResults[0];
        runner.close();
        return result?.ok ? JSON.stringify(result.output) : JSON.stringify(result);
      },
      { tabId, text },
    );
    expect(JSON.parse(outcome)).toMatchObject({ keys: ['__proto__', 'constructor'], plainPrototype: true, length: JSON.stringify(JSON.parse(text)).length });
    expect(await page.evaluate(() => ({}) as { polluted?: boolean }).then((o) => o.polluted)).toBeUndefined();
  });

  test('one mebibyte of arguments makes the round trip', async ({ context, ids }) => {
    const { harness, tabId } = await setUp(context, ids.harness);
    const value = 'y'.repeat(1024 * 1024);
    const outcome = await runCalls(harness, tabId, [{ name: 'echo', arguments: { value } }]);
    expect(outcome.results[0]).toMatchObject({ ok: true, output: { value, length: value.length + 2 } });
  });

  test("arguments over Chrome's message limit are refused on the page, an output over it in the tab", async ({ context, ids }) => {
    test.setTimeout(120_000);
    const { harness, tabId } = await setUp(context, ids.harness);
    const result = await harness.evaluate(async (tabId) => {
      const { ambi, harness } = globalThis as unknown as HarnessGlobals;
      const huge = 'z'.repeat(65 * 1024 * 1024);
      const runner = harness.runner({
        engine: ambi.scriptedEngine([
          {
            toolCalls: [
              { name: 'echo', arguments: { value: huge } },
              { name: 'big_output', arguments: { mb: 65 } },
            ],
          },
          'done',
        ]),
      });
      await runner.tabTools(tabId);
      const run = runner.run('go');
      const results: Array<{ name: string; code: string; message: string }> = [];
      for await (const event of run.events)
        if (event.type === 'tool_finished' && !event.result.ok) results.push({ name: event.result.name, ...event.result.error });
      runner.close();
      return results.map((r) => ({ ...r, message: r.message.slice(0, 300) }));
    }, tabId);
    expect(result).toEqual([
      expect.objectContaining({ name: 'echo', code: 'invalid_arguments', message: expect.stringContaining(`could not be sent to tab ${tabId}`) }),
      expect.objectContaining({ name: 'big_output', code: 'crashed', message: expect.stringContaining('could not send its answer back') }),
    ]);
  });

  test('the content script validates the arguments it is sent, whatever the page sent', async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    // Straight to the port, past the runner's own validation: a hostile or buggy page.
    const replies = await harness.evaluate(async (tabId) => {
      type Port = {
        postMessage(m: unknown): void;
        onMessage: { addListener(l: (m: unknown) => void): void };
        onDisconnect: { addListener(l: () => void): void };
      };
      const tabs = (globalThis as unknown as { chrome: { tabs: { connect(id: number, info: object): Port } } }).chrome.tabs;
      const ask = (request: unknown) =>
        new Promise((resolve) => {
          const port = tabs.connect(tabId, { name: 'ambi-web:tab-tools', frameId: 0 });
          port.onMessage.addListener(resolve);
          port.onDisconnect.addListener(() => resolve('disconnected'));
          port.postMessage(request);
        });
      return {
        invalid: await ask({ t: 'call', name: 'strict', args: { n: 0 }, callId: 'c1', attempt: 1, idempotencyKey: 'k1' }),
        extra: await ask({ t: 'call', name: 'strict', args: { n: 2, more: 1 }, callId: 'c2', attempt: 1, idempotencyKey: 'k2' }),
        unknown: await ask({ t: 'call', name: 'hasOwnProperty', args: {}, callId: 'c3', attempt: 1, idempotencyKey: 'k3' }),
        garbage: await ask(['not', 'a', 'request']),
        valid: await ask({ t: 'call', name: 'strict', args: { n: 2 }, callId: 'c4', attempt: 1, idempotencyKey: 'k4' }),
      };
    }, tabId);
    expect(replies.invalid).toEqual({ t: 'failed', code: 'invalid_arguments', message: expect.stringContaining('/n must be >= 1') });
    expect(replies.extra).toEqual({ t: 'failed', code: 'invalid_arguments', message: expect.stringContaining("additional properties ('more')") });
    expect(replies.unknown).toEqual({ t: 'failed', code: 'unknown_tool', message: expect.stringContaining('no tool "hasOwnProperty"') });
    expect(replies.garbage).toEqual({ t: 'failed', code: 'internal_error', message: 'Not a tab tools request' });
    expect(replies.valid).toEqual({ t: 'done', value: 4 });
    expect(await mark(page, 'strictRuns')).toBe('1');
  });

  test("a tab's business error reaches the model as tool_error; its approval rule decides in the tab", async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    const outcome = await runCalls(harness, tabId, [
      { name: 'fails', arguments: {} },
      { name: 'risky', arguments: { level: 1 } },
      { name: 'risky', arguments: { level: 2 } },
    ]);
    expect(outcome.results).toEqual([
      expect.objectContaining({ name: 'fails', ok: false, code: 'tool_error', message: 'the shelf is empty' }),
      expect.objectContaining({ name: 'risky', ok: true, output: 'level 1' }),
      expect.objectContaining({ name: 'risky', ok: true, output: 'level 2' }),
    ]);
    // Both asked: a request that offers tab tools is exposed (their definitions come from the tab), so a
    // call that changes something asks whatever its rule says; the rule itself ran in the tab.
    expect(outcome.approvals).toEqual(['risky', 'risky']);
    // Each card names the tab's definitions as what the model read: a source that is no call's result.
    const definitions = { callId: '', name: `tab:${tabId}`, kind: 'definitions', tools: expect.arrayContaining(['fails', 'risky', 'stamp']) };
    expect(outcome.approvalSources).toEqual([[definitions], [definitions]]);
    expect(await mark(page, 'riskyRuns')).toBe('2');
  });

  test("with acceptDefinitions the tab's definitions expose nothing: its own rule alone asks", async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness);
    const calls = [
      { name: 'risky', arguments: { level: 1 } },
      { name: 'risky', arguments: { level: 2 } },
    ];
    const outcome = await runCalls(harness, tabId, calls, { acceptDefinitions: true });
    expect(outcome.results).toEqual([
      expect.objectContaining({ name: 'risky', ok: true, output: 'level 1' }),
      expect.objectContaining({ name: 'risky', ok: true, output: 'level 2' }),
    ]);
    // Level 1 ran unasked; level 2 asked because the tab's rule says so, with nothing untrusted read.
    expect(outcome.approvals).toEqual(['risky']);
    expect(outcome.approvalSources).toEqual([null]);
    expect(await mark(page, 'riskyRuns')).toBe('2');
    // Not a boolean: refused before anything is listed.
    const refused = await runCalls(harness, tabId, [], { acceptDefinitions: 'yes' as unknown as boolean });
    expect(refused.error).toEqual({ code: 'invalid_option', message: expect.stringContaining('acceptDefinitions') });
  });
});

test.describe('frames and pages', () => {
  test("a frame's tools, and a frame that goes away mid-call: tab_gone", async ({ context, ids }) => {
    const { page, harness, tabId } = await setUp(context, ids.harness, '/frames.html');
    const frameId = await harness.evaluate(async (tabId) => {
      type Frames = { getAllFrames(q: { tabId: number }): Promise<Array<{ frameId: number; url: string }>> };
      const nav = (globalThis as unknown as { chrome: { webNavigation: Frames } }).chrome.webNavigation;
      return (await nav.getAllFrames({ tabId })).find((frame) => frame.url.endsWith('/inner.html'))!.frameId;
    }, tabId);
    const where = await runCalls(harness, tabId, [{ name: 'where', arguments: {} }], { frameId });
    expect(where.results[0]?.output).toEqual({ url: `${PAGES}/inner.html`, title: 'Inner frame', frame: true });
    const pending = runCalls(harness, tabId, [{ name: 'slow', arguments: {} }], { frameId });
    const inner = page.frame({ url: /inner\.html$/ })!;
    await expect.poll(() => inner.evaluate(() => document.documentElement.dataset.slowStarted ?? null)).toBe('1');
    await page.evaluate(() => document.querySelector('#inner')!.remove());
    const outcome = await pending;
    expect(outcome.results).toEqual([
      expect.objectContaining({ name: 'slow', ok: false, code: 'tab_gone', message: expect.stringContaining(`(frame ${frameId})`) }),
    ]);
    expect(await mark(page, 'slowStarted')).toBeNull(); // the top frame's tool never ran
  });

  test('two extension pages call the same tab at once; each gets its own answers', async ({ context, ids }) => {
    const { harness, tabId } = await setUp(context, ids.harness);
    const second = await openHarness(context, ids.harness);
    const calls = (tag: string) => Array.from({ length: 5 }, (_, i) => ({ name: 'echo', arguments: { value: `${tag}-${i}` } }));
    const [a, b] = await Promise.all([runCalls(harness, tabId, calls('a')), runCalls(second, tabId, calls('b'))]);
    expect(a.results.map((r) => (r.output as { value: string }).value)).toEqual(['a-0', 'a-1', 'a-2', 'a-3', 'a-4']);
    expect(b.results.map((r) => (r.output as { value: string }).value)).toEqual(['b-0', 'b-1', 'b-2', 'b-3', 'b-4']);
  });
});

test('close() removes the tools from the runner; refresh() lists them again', async ({ context, ids }) => {
  const { harness, tabId } = await setUp(context, ids.harness);
  const outcome = await harness.evaluate(async (tabId) => {
    const { ambi, harness } = globalThis as unknown as HarnessGlobals;
    const runner = harness.runner({ engine: ambi.scriptedEngine([{ toolCalls: [{ name: 'where', arguments: {} }] }, 'done']) });
    const first = await runner.tabTools(tabId);
    const refreshed = await first.refresh();
    await first.close();
    const afterClose = first.tools;
    // The names are free again: the same tab registers under them once more.
    const again = await runner.tabTools(tabId);
    await again.close();
    const run = runner.run('go');
    let code: string | undefined;
    for await (const event of run.events) if (event.type === 'tool_finished' && !event.result.ok) code = event.result.error.code;
    runner.close();
    return { refreshed, afterClose, again: again.tools, code };
  }, tabId);
  expect(outcome.refreshed).toContain('where');
  expect(outcome.afterClose).toEqual([]);
  expect(outcome.again).toEqual([]);
  expect(outcome.code).toBe('unknown_tool');
});

// The harness's runner worker is ambi-web's (serveRunner, as workers/runner.worker.ts) with a
// recorder started first: Chromium does not surface a worker's CSP refusals to Playwright.
test('registration is all or none: a name taken on the runner adds none of the tab tools', async ({ context, ids }) => {
  const { harness, tabId } = await setUp(context, ids.harness);
  const outcome = await harness.evaluate(async (tabId) => {
    const { ambi, harness } = globalThis as unknown as HarnessGlobals;
    const runner = harness.runner({ engine: ambi.scriptedEngine([{ toolCalls: [{ name: 'echo', arguments: { value: 1 } }] }, 'done']) });
    runner.tool(
      ambi.defineTool({ name: 'where', description: 'the panel', parameters: { type: 'object', properties: {} }, readOnly: true, call: () => 'panel' }),
    );
    const taken = await runner.tabTools(tabId).then(
      () => 'added',
      (e: { code: string }) => e.code,
    );
    const badPrefix = await runner.tabTools(tabId, { prefix: 'a b' }).then(
      () => 'added',
      (e: { code: string }) => e.code,
    );
    const run = runner.run('go');
    let code: string | undefined;
    for await (const event of run.events) if (event.type === 'tool_finished' && !event.result.ok) code = event.result.error.code;
    // The names the failed attempt claimed are free: the tab's tools register under a prefix.
    const prefixed = await runner.tabTools(tabId, { prefix: 'tab' });
    runner.close();
    return { taken, badPrefix, code, prefixed: prefixed.tools.includes('tab_where') };
  }, tabId);
  expect(outcome).toEqual({ taken: 'duplicate_tool', badPrefix: 'invalid_option', code: 'unknown_tool', prefixed: true });
});

test("no CSP violation in the extension's page and runner worker, validation left to ambi-web", async ({ context, ids, logged }) => {
  const { harness, tabId } = await setUp(context, ids.harness);
  const outcome = await runCalls(harness, tabId, [
    { name: 'strict', arguments: { n: 3 } },
    { name: 'strict', arguments: { n: 'three' } },
  ]);
  expect(outcome.results).toHaveLength(2);
  expect(outcome.results).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ ok: true, output: 6 }),
      expect.objectContaining({ ok: false, code: 'invalid_arguments', message: 'Invalid arguments for "strict": /n must be integer' }),
    ]),
  );
  const seen = await harness.evaluate(async () => {
    const { harness } = globalThis as unknown as HarnessGlobals;
    return { page: harness.violations, workers: await harness.workerViolations() };
  });
  expect(seen).toEqual({ page: [], workers: [] });
  // The control: a worker of this extension that does try eval is refused, and recorded.
  expect(await harness.evaluate(() => (globalThis as unknown as HarnessGlobals).harness.probeEval())).toMatch(/EvalError/);
  const after = await harness.evaluate(() => (globalThis as unknown as HarnessGlobals).harness.workerViolations());
  // (Chromium reports the refused eval more than once.)
  expect(after.length).toBeGreaterThan(0);
  expect(new Set(after.map((v) => JSON.stringify(v)))).toEqual(new Set([JSON.stringify({ realm: 'eval probe', directive: 'script-src', blockedURI: 'eval' })]));
  expect(logged.filter((line) => /Refused to evaluate/.test(line) && !line.includes('eval-probe'))).toEqual([]);
});
