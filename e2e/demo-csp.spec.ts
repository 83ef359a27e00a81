import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { openDemo } from './demo-helpers.js';
import { e2ePort, FAKE_ORIGIN } from './ports.js';

// The built demo served again with a strict Content-Security-Policy header (no 'unsafe-eval').
const port = e2ePort('DEMO_CSP');
// The browser posts violation reports (from the page and from every worker) to the fake server.
const REPORTS = FAKE_ORIGIN;
let server: ChildProcess;

test.beforeAll(async () => {
  const env = { ...process.env, DEMO_CSP: '1', DEMO_CSP_REPORT_URI: `${REPORTS}/__csp-report` };
  // Vite itself, not through npx: killing npx would leave the server running.
  server = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    env,
    stdio: 'pipe',
  });
  for (let i = 0; i < 200; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the CSP preview server did not start');
});

test.afterAll(() => {
  server.kill();
});

test.use({ baseURL: `http://127.0.0.1:${port}` });

test('the demo runs its offline walkthrough under a strict CSP with no violation', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`Refused to: ${event.violatedDirective} ${event.blockedURI}`));
  });
  await page.request.delete(`${REPORTS}/__csp-reports`);
  const response = await page.goto('/');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
  await openDemo(page);
  await page.locator('#walkthrough').click();
  await page.locator('#chat li.approval button.approve').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
  await expect(page.locator('#chat li.assistant').last()).toContainText('no model was used');
  await expect(page.locator('#leaves li')).toHaveCount(1);
  await expect(page.locator('#timeline')).toContainText('csv_stats finished');
  expect(violations).toEqual([]);
  // Reports travel on their own; a last round trip through the workers gives them time to land.
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  expect(await (await page.request.get(`${REPORTS}/__csp-reports`)).json()).toEqual([]);
});
