// One run across pages and tabs (`createWorkerRunner({ shared: true })`) in Chromium: the page
// e2e/shared is built on its own and served by `vite preview`, its model the fake
// OpenAI-compatible server, which streams SSE. Navigations, reloads and closed tabs are real
// ones; each test runs in a fresh browser context (its own SharedWorker, storage and locks).
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { FAKE_BASE_URL, type FakeReply, modelRequests, script } from './demo-helpers.js';
import { e2ePort } from './ports.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const config = join(root, 'e2e', 'shared', 'vite.config.ts');
const port = e2ePort('SHARED');
const origin = `http://127.0.0.1:${port}`;
let server: ChildProcess | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await promisify(execFile)(process.execPath, [vite, 'build', '--config', config], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  server = spawn(process.execPath, [vite, 'preview', '--config', config, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: root,
    stdio: 'ignore',
  });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (
      await fetch(origin).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`vite preview did not answer on ${port}`);
});

test.afterAll(() => {
  server?.kill();
});

/** Open (or navigate `page` to) a page of the origin with these page tools; resolves once its runner holds them. */
async function open(page: Page, tools: string[], extra = ''): Promise<Page> {
  await page.goto(`${origin}/?api=${encodeURIComponent(FAKE_BASE_URL)}&tools=${tools.join(',')}${extra}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  return page;
}

/** A new tab of `context`, open on a page of the origin. */
async function tab(context: BrowserContext, tools: string[], extra = ''): Promise<Page> {
  return open(await context.newPage(), tools, extra);
}

/** How often tool `name` ran, in any tab of the origin. */
const ran = (page: Page, name: string) => page.evaluate((key) => Number(localStorage.getItem(key) ?? '0'), `ran:${name}`);

/** How run `runId` ended on `page`, once it did. */
async function ended(page: Page, runId: string): Promise<{ text?: string; toolResults?: Array<Record<string, unknown>>; error?: string }> {
  await page.waitForFunction((id) => window.shared.ended(id) !== undefined, runId);
  return page.evaluate((id) => window.shared.ended(id) as never, runId);
}

/** A long answer the fake model streams in 12-character chunks, one every `chunkDelayMs`. */
const LONG = Array.from({ length: 40 }, (_, i) => `part ${String(i).padStart(2, '0')}.`).join(' ');

test('navigation mid-stream: the next page attaches, the answer goes on, no delta lost or doubled, no call run twice', async ({ page }) => {
  const replies: FakeReply[] = [{ toolCalls: [{ id: 'k1', name: 'count', arguments: {} }] }, { text: LONG, chunkDelayMs: 40 }];
  await script(page, replies);
  await open(page, ['count']);
  const runId = await page.evaluate(() => window.shared.start('count, then talk'));
  await page.waitForFunction((id) => window.shared.text(id).length > 24, runId);
  const before = await page.evaluate((id) => window.shared.text(id), runId);
  // A same-origin navigation (another URL of the site), mid-stream.
  await open(page, ['count'], '&page=2');
  const listed = await page.evaluate(() => window.shared.runs());
  expect(listed).toMatchObject([{ runId, status: 'running', waiting: [] }]);
  await page.evaluate((id) => window.shared.attach(id), runId);
  const result = await ended(page, runId);
  expect(result.text).toBe(LONG);
  expect(result.toolResults).toMatchObject([{ id: 'k1', ok: true, output: 1 }]);
  // The attached page saw the answer whole: what was said before it attached (once), then the rest.
  expect(await page.evaluate((id) => window.shared.text(id), runId)).toBe(LONG);
  expect(LONG.startsWith(before)).toBe(true);
  const types = await page.evaluate((id) => window.shared.events(id).map((e) => e.type), runId);
  expect(types.filter((t) => t === 'run_started')).toHaveLength(1);
  expect(types.filter((t) => t === 'tool_finished')).toHaveLength(1);
  expect(types.at(-1)).toBe('run_finished');
  expect(await ran(page, 'count')).toBe(1);
  expect(await modelRequests(page)).toHaveLength(2);
  expect(await page.evaluate(() => window.shared.runs())).toEqual([]);
});

test('reload mid-approval in tab A, approve in tab B: decided once, the tool runs once, in A’s new page', async ({ context }) => {
  const a = await context.newPage();
  await script(a, [{ toolCalls: [{ id: 'r1', name: 'remove', arguments: { note: 'groceries' } }] }, { text: 'Removed it.' }]);
  await open(a, ['remove']);
  const b = await tab(context, []);
  const runId = await a.evaluate(() => window.shared.start('remove groceries'));
  await a.waitForFunction((id) => window.shared.events(id).some((e) => e.type === 'approval_requested'), runId);
  await a.reload();
  await expect(a.locator('body')).toHaveAttribute('data-ready', 'true');
  const listed = await b.evaluate(() => window.shared.runs());
  expect(listed).toMatchObject([{ runId, status: 'waiting', waiting: [{ callId: 'r1', call: { name: 'remove', arguments: { note: 'groceries' } } }] }]);
  // Both follow it again; B approves, then A approves too (too late: decided once).
  await a.evaluate((id) => window.shared.attach(id), runId);
  await b.evaluate((id) => window.shared.attach(id), runId);
  for (const p of [a, b]) await p.waitForFunction((id) => window.shared.events(id).some((e) => e.type === 'approval_requested'), runId);
  await b.evaluate((id) => window.shared.approve(id, 'r1'), runId);
  await a.evaluate((id) => window.shared.approve(id, 'r1'), runId);
  const [inA, inB] = await Promise.all([ended(a, runId), ended(b, runId)]);
  expect(inB.text).toBe('Removed it.');
  expect(inA).toEqual(inB);
  expect(inB.toolResults).toMatchObject([{ id: 'r1', ok: true, output: 'removed groceries (1)' }]);
  expect(await ran(a, 'remove')).toBe(1);
  for (const p of [a, b]) {
    const resolved = await p.evaluate((id) => window.shared.events(id).filter((e) => e.type === 'approval_resolved'), runId);
    expect(resolved).toMatchObject([{ callId: 'r1', approved: true }]);
  }
});

test('a page tool whose tab closed mid-call ends tab_gone, and is not run again', async ({ context }) => {
  const holder = await tab(context, ['stall']);
  const asker = await tab(context, []);
  await script(asker, [{ toolCalls: [{ id: 's1', name: 'stall', arguments: {} }] }, { text: 'That tab is gone.' }]);
  const runId = await asker.evaluate(() => window.shared.start('ask the other tab'));
  await expect.poll(() => ran(asker, 'stall')).toBe(1);
  await holder.close();
  const result = await ended(asker, runId);
  expect(result.toolResults).toMatchObject([{ id: 's1', ok: false, error: { code: 'tab_gone' } }]);
  expect(result.text).toBe('That tab is gone.');
  expect(await ran(asker, 'stall')).toBe(1);
});

test('a page tool a navigation dropped (the next page did not register it) ends tool_gone', async ({ context }) => {
  const holder = await tab(context, ['count']);
  const asker = await tab(context, []);
  await open(holder, [], '&page=2');
  await script(asker, [{ toolCalls: [{ id: 'k1', name: 'count', arguments: {} }] }, { text: 'Not there.' }]);
  const runId = await asker.evaluate(() => window.shared.start('count in the other tab'));
  const result = await ended(asker, runId);
  expect(result.toolResults).toMatchObject([{ id: 'k1', ok: false, error: { code: 'tool_gone' } }]);
  expect(await ran(asker, 'count')).toBe(0);
  // It was not offered to the model once its page was gone.
  const offered = (await modelRequests(asker)) as Array<{ tools?: Array<{ function: { name: string } }> }>;
  expect(offered).toHaveLength(2);
  expect(offered.flatMap((request) => request.tools ?? []).map((tool) => tool.function.name)).not.toContain('count');
});

test('without SharedWorker, one tab leads; it closes mid-run and the next tab leads, resuming the run from its journal (no call run twice)', async ({
  context,
}) => {
  const flags = '&noshared&db=shared-e2e';
  const a = await tab(context, ['count'], flags);
  const b = await tab(context, ['count'], flags);
  await script(a, [{ toolCalls: [{ id: 'k1', name: 'count', arguments: {} }] }, { text: LONG, chunkDelayMs: 40 }, { text: 'Counted once.' }]);
  const runId = await a.evaluate(() => window.shared.start('count, then talk', 'notes'));
  await a.waitForFunction((id) => window.shared.text(id).length > 24, runId);
  expect(await b.evaluate(() => window.shared.runs())).toMatchObject([{ runId, conversation: 'notes', status: 'running' }]);
  await b.evaluate((id) => window.shared.attach(id), runId);
  await b.waitForFunction((id) => window.shared.text(id).length > 0, runId);
  await a.close();
  const result = await ended(b, runId);
  expect(result.text).toBe('Counted once.');
  const events = await b.evaluate((id) => window.shared.events(id), runId);
  expect(events).toContainEqual(expect.objectContaining({ type: 'warning', code: 'lead_changed' }));
  expect(await ran(b, 'count')).toBe(1);
  // The reply being written when the lead's tab closed is asked for again; the call is not.
  const requests = await modelRequests(b);
  expect(requests).toHaveLength(3);
  expect(JSON.stringify(requests[2])).toContain('"tool_call_id":"k1"');
  expect(await b.evaluate(() => window.shared.runs())).toEqual([]);
});

test('a tab attaching to another tab’s run id that does not exist gets unknown_run; its events and approvals change nothing', async ({ context }) => {
  const a = await tab(context, ['remove']);
  const b = await tab(context, []);
  await script(a, [{ toolCalls: [{ id: 'r1', name: 'remove', arguments: { note: 'x' } }] }, { text: 'Done.' }]);
  const runId = await a.evaluate(() => window.shared.start('remove x'));
  await a.waitForFunction((id) => window.shared.events(id).some((e) => e.type === 'approval_requested'), runId);
  await b.evaluate(() => window.shared.attach('no-such-run'));
  expect(await ended(b, 'no-such-run')).toEqual({ error: 'unknown_run' });
  // A call id the run does not wait for: nothing is decided.
  await b.evaluate((id) => window.shared.attach(id), runId);
  await b.evaluate((id) => window.shared.approve(id, 'not-a-call'), runId);
  expect(await b.evaluate(() => window.shared.runs())).toMatchObject([{ runId, status: 'waiting' }]);
  await a.evaluate((id) => window.shared.approve(id, 'r1'), runId);
  expect((await ended(b, runId)).text).toBe('Done.');
});
