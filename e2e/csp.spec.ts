// ambi-web under a strict Content-Security-Policy (no 'unsafe-eval'), as Manifest V3
// extensions and security-minded sites enforce it. The page e2e/csp is built on its own and
// served twice by `vite preview`: with the CSP header on every response (a free port), and
// without it (another) for the baseline. On the page and in the runner worker, valid and
// invalid calls get the same results and messages in both validation modes. A tool's first
// calls are checked without eval in either mode, so neither causes a violation; once a tool is
// busy, 'auto' tries ajv's compiler, falls back once per realm (one violation report), and the
// results stay the same.
import { expect, test, type Page } from '@playwright/test';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { STRICT_CSP } from './csp/vite.config.js';
import { e2ePort } from './ports.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const config = join(root, 'e2e', 'csp', 'vite.config.ts');
const strictPort = e2ePort('CSP_STRICT');
const openPort = e2ePort('CSP_OPEN');
const strict = `http://127.0.0.1:${strictPort}`;
const open = `http://127.0.0.1:${openPort}`;
const servers: ChildProcess[] = [];

/** `vite preview` of dist/csp on `port`; resolves once it answers. */
async function preview(port: number, csp: 'on' | 'off'): Promise<void> {
  const child = spawn(process.execPath, [vite, 'preview', '--config', config, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: root,
    env: { ...process.env, CSP: csp },
    stdio: 'pipe',
  });
  servers.push(child);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`vite preview exited (${code}):\n${output}`))));
  exited.catch(() => {});
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (
      await Promise.race([
        fetch(`http://127.0.0.1:${port}/`).then(
          (r) => r.ok,
          () => false,
        ),
        exited,
      ])
    )
      return;
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 200)), exited]);
  }
  throw new Error(`vite preview did not answer on ${port} within 30 s:\n${output}`);
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await promisify(execFile)(process.execPath, [vite, 'build', '--config', config], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  await Promise.all([preview(strictPort, 'on'), preview(openPort, 'off')]);
});

test.afterAll(async () => {
  await Promise.all(
    servers.map((child) =>
      child.exitCode !== null || child.signalCode !== null ? undefined : new Promise((resolve) => (child.once('exit', resolve), child.kill())),
    ),
  );
});

interface Violation {
  realm: string;
  directive: string;
  blockedURI: string;
}

interface Outcome {
  results: unknown[];
  workerViolations: Violation[];
  pageViolations: Violation[];
}

test.beforeEach(async ({ page }) => {
  // Before any script of the page runs, on every navigation.
  await page.addInitScript(() => {
    const seen: Violation[] = [];
    (window as unknown as { pageViolations: Violation[] }).pageViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push({ realm: 'page', directive: event.effectiveDirective, blockedURI: event.blockedURI });
    });
  });
});

/**
 * Open the test page at `origin`; it runs the calls in `realm` with `mode` by itself (so
 * CSP applies: code the test evaluates through DevTools may be let through), and the
 * test reads the results and every CSP violation, recorded from before any script ran.
 */
async function runPage(page: Page, origin: string, realm: 'page' | 'worker', mode: 'auto' | 'no-eval', busy = false): Promise<Outcome> {
  await page.goto(`${origin}/?realm=${realm}&mode=${mode}${busy ? '&busy' : ''}`);
  const result = page.locator('#result');
  await expect(result).toHaveAttribute('data-state', /^(done|failed)$/);
  const text = (await result.textContent()) ?? '';
  expect(await result.getAttribute('data-state'), text).toBe('done');
  const pageViolations = await page.evaluate(() => (window as unknown as { pageViolations: Violation[] }).pageViolations);
  return { ...JSON.parse(text), pageViolations };
}

const invalid = (message: string) => ({ ok: false, attempts: 0, error: { code: 'invalid_arguments', message } });

/** What the page's ToolManager reports: JSON Schema problems for `add`, zod's issues for `label`. */
const expectedInPage = [
  { id: 'valid', ok: true, attempts: 1, output: 5 },
  { id: 'wrong-type', ...invalid('Invalid arguments for "add": /b must be number') },
  { id: 'missing', ...invalid('Invalid arguments for "add": arguments must have required property \'b\'') },
  { id: 'extra', ...invalid('Invalid arguments for "add": arguments must NOT have additional properties (\'c\')') },
  { id: 'zod-valid', ok: true, attempts: 1, output: 'urgent x1' },
  {
    id: 'zod-json-schema',
    ...invalid('Invalid arguments for "label": /text Too small: expected string to have >=2 characters; /count Invalid input: expected int, received number'),
  },
  { id: 'zod-refinement', ...invalid('Invalid arguments for "label": /text that label is reserved') },
];

/** What the runner worker reports: it validates `label` by the JSON Schema zod wrote; the page's zod refuses the rest. */
const expectedInWorker = expectedInPage.map((result) =>
  result.id === 'zod-json-schema'
    ? { id: result.id, ...invalid('Invalid arguments for "label": /text must NOT have fewer than 2 characters; /count must be integer') }
    : result,
);

test('the page and its worker scripts are served with the strict CSP', async ({ page, request }) => {
  expect(STRICT_CSP).not.toContain('unsafe-eval');
  expect((await request.get(`${strict}/`)).headers()['content-security-policy']).toBe(STRICT_CSP);
  expect((await request.get(`${open}/`)).headers()['content-security-policy']).toBeUndefined();
  const { results } = await runPage(page, strict, 'worker', 'no-eval');
  expect(results).toHaveLength(expectedInWorker.length);
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => name.endsWith('.js')),
  );
  const worker = scripts.find((name) => /runner\.worker[^/]*\.js$/.test(name));
  expect(worker, `the runner worker script among ${scripts.join(', ')}`).toBeTruthy();
  for (const script of [...scripts, worker!]) {
    expect(new URL(script).origin).toBe(strict);
    expect((await request.get(script)).headers()['content-security-policy'], script).toBe(STRICT_CSP);
  }
});

for (const mode of ['no-eval', 'auto'] as const) {
  test.describe(`validation: '${mode}'`, () => {
    test('on the page: the same results and messages as without the CSP', async ({ page }) => {
      const baseline = await runPage(page, open, 'page', mode);
      expect(baseline.results).toEqual(expectedInPage);
      expect(baseline.pageViolations).toEqual([]);
      const underCsp = await runPage(page, strict, 'page', mode);
      expect(underCsp.results).toEqual(baseline.results);
      expect(underCsp.pageViolations).toEqual([]);
    });

    test('on the page, a busy tool: the same results; only auto tries eval, once', async ({ page }) => {
      const baseline = await runPage(page, open, 'page', mode, true);
      expect(baseline.results).toEqual(expectedInPage);
      const underCsp = await runPage(page, strict, 'page', mode, true);
      expect(underCsp.results).toEqual(baseline.results);
      if (mode === 'no-eval') expect(underCsp.pageViolations).toEqual([]);
      // 'auto' tries ajv's compiler once, is refused, and uses the no-eval validator from then on.
      else expect(underCsp.pageViolations).toEqual([{ realm: 'page', directive: 'script-src', blockedURI: 'eval' }]);
    });

    test('in the runner worker: the same results and messages as without the CSP', async ({ page }) => {
      const baseline = await runPage(page, open, 'worker', mode);
      expect(baseline.results).toEqual(expectedInWorker);
      expect([...baseline.pageViolations, ...baseline.workerViolations]).toEqual([]);
      const underCsp = await runPage(page, strict, 'worker', mode);
      expect(underCsp.results).toEqual(baseline.results);
      expect(underCsp.pageViolations).toEqual([]);
      expect(underCsp.workerViolations).toEqual([]);
    });
  });
}
