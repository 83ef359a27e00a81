// Code Mode's sandbox under a strict Content-Security-Policy: `script-src 'self' 'wasm-unsafe-eval'`,
// no 'unsafe-eval', on the page and on the sandbox's worker script (a worker takes its policy
// from its own response). The page e2e/codemode-csp is built on its own and served by a small
// server of this spec that puts the policy on every response and collects the browser's
// violation reports (`report-uri`), from the page and from every worker. Without
// 'wasm-unsafe-eval' the sandbox cannot compile QuickJS and says so with a code.
import { expect, test, type Page } from '@playwright/test';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CODEMODE_CSP } from './codemode-csp/vite.config.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist', 'codemode-csp');
const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css' };
const reports: unknown[] = [];
let server: Server;
let origin = '';
/** The policy the server sends: `CODEMODE_CSP` unless a test asks for another. */
let policy = CODEMODE_CSP;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  await promisify(execFile)(process.execPath, [vite, 'build', '--config', join(root, 'e2e/codemode-csp/vite.config.ts')], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
  server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/__csp-report') {
      let body = '';
      for await (const chunk of request) body += chunk;
      reports.push(JSON.parse(body || 'null'));
      response.writeHead(204).end();
      return;
    }
    const path = normalize(join(dist, url.pathname === '/' ? 'index.html' : url.pathname));
    if (!path.startsWith(dist)) return void response.writeHead(403).end();
    try {
      const body = await readFile(path);
      response.writeHead(200, {
        'content-type': types[extname(path)] ?? 'application/octet-stream',
        'content-security-policy': `${policy}; report-uri /__csp-report`,
        'cache-control': 'no-store',
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

test.beforeEach(async ({ page }) => {
  reports.length = 0;
  policy = CODEMODE_CSP;
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { violations: string[] }).violations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI}`));
  });
});

/** Open the page with `query`; the parsed #result and the violations the page saw. */
async function open(page: Page, query: string): Promise<{ result: unknown; pageViolations: string[] }> {
  await page.goto(`${origin}/${query}`);
  const result = page.locator('#result');
  await expect(result).toHaveAttribute('data-state', /^(done|failed)$/, { timeout: 30_000 });
  const text = (await result.textContent()) ?? '';
  expect(await result.getAttribute('data-state'), text).toBe('done');
  return { result: JSON.parse(text), pageViolations: await page.evaluate(() => (window as unknown as { violations: string[] }).violations) };
}

/** Reports travel on their own: a last round trip to the server gives them time to land. */
async function reportsAfterSettling(page: Page): Promise<unknown[]> {
  await page.goto(`${origin}/?probe=none`);
  await page.waitForTimeout(500);
  return [...reports];
}

const expected = [
  { result: 50, logs: ['sum 5'] },
  { result: 'not_found', logs: [] },
  { result: ['undefined', 'undefined', 'undefined', 2], logs: [] },
  { code: 'program_timeout', message: 'The program ran past its 300 ms deadline and was stopped.' },
];

test('the proof: an eval on the page is refused, and its violation is reported', async ({ page }) => {
  const { result, pageViolations } = await open(page, '?probe=eval');
  expect(result).toEqual({ refused: true });
  expect(pageViolations).toEqual(['script-src eval']);
  await expect.poll(() => reports.length).toBeGreaterThan(0);
});

for (const isolation of ['worker', 'in-process'] as const) {
  test(`programs run in the sandbox (${isolation}) with 0 violations: calls, a caught failure, no host objects, the deadline`, async ({ page }) => {
    const { result, pageViolations } = await open(page, `?isolation=${isolation}`);
    expect(result).toEqual(expected);
    expect(pageViolations).toEqual([]);
    expect(await reportsAfterSettling(page)).toEqual([]);
  });
}

test('a run in Code Mode through the WorkerRunner (runner worker, sandbox worker, IndexedDB, an approval) with 0 violations', async ({ page }) => {
  const loaded: string[] = [];
  page.on('request', (r) => loaded.push(r.url()));
  const { result, pageViolations } = await open(page, '?probe=runner');
  expect(result).toEqual({ output: { result: { sum: 5, saved: 'saved sum 5' }, logs: [] }, nested: ['prog/add', 'prog/save'], text: 'Saved.' });
  expect(pageViolations).toEqual([]);
  expect(await reportsAfterSettling(page)).toEqual([]);
  // Both workers ran under the policy: the runner's, and the sandbox it started for the program.
  expect(loaded.some((url) => /runner\.worker[^/]*\.js$/.test(url))).toBe(true);
  expect(loaded.some((url) => /sandbox\.worker[^/]*\.js$/.test(url))).toBe(true);
});

test("the sandbox's worker script and its wasm are served under the policy", async ({ page, request }) => {
  const loaded: string[] = [];
  page.on('request', (r) => loaded.push(r.url()));
  await open(page, '?isolation=worker');
  const worker = loaded.find((url) => /sandbox\.worker[^/]*\.js$/.test(url));
  const wasm = loaded.find((url) => url.endsWith('.wasm'));
  expect(worker, loaded.join(', ')).toBeTruthy();
  expect(wasm, loaded.join(', ')).toBeTruthy();
  for (const url of [worker!, wasm!]) expect((await request.get(url)).headers()['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
});

test("without 'wasm-unsafe-eval' the sandbox cannot start: sandbox_unavailable, nothing run", async ({ page }) => {
  policy = CODEMODE_CSP.replace(" 'wasm-unsafe-eval'", '');
  const { result } = await open(page, '?isolation=worker');
  for (const outcome of result as { code: string }[]) expect(outcome.code).toBe('sandbox_unavailable');
  // The sandbox's worker was refused WebAssembly, and said so in a report: a worker's violations are seen too.
  await expect.poll(() => JSON.stringify(reports)).toContain('wasm-eval');
});
