// The API reference as README suggests reading it: built by TypeDoc (`npm run docs`) and opened
// from file://. Its pages log nothing (no icon refused as another file's), its icons are drawn, and
// its first page's "Where next" leads to every guide, the untrusted-content, traces, UI-adapter and
// extension ones included.
import { expect, type Page, test } from '@playwright/test';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { root } from './packed-tarball.js';

let out = '';

test.beforeAll(async () => {
  test.setTimeout(180_000);
  out = mkdtempSync(join(tmpdir(), 'ambi-web-api-'));
  await promisify(execFile)(process.execPath, [join(root, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--out', out], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024,
  });
});

test.afterAll(() => {
  if (out) rmSync(out, { recursive: true, force: true });
});

/** Open a page of the reference from file://; resolves with what the page logged as errors. */
async function open(page: Page, file: string): Promise<string[]> {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(pathToFileURL(join(out, file)).href);
  await page.waitForLoadState('load');
  // icons.js (async) adds the sprite the icons refer to.
  await expect(page.locator('body > svg symbol[id^="icon-"]').first()).toBeAttached();
  return errors;
}

test('opened from file://, the first page and a function page log no error, and their icons refer to the page itself', async ({ page }) => {
  for (const file of ['index.html', 'functions/ambi-web.defineTool.html']) {
    expect(existsSync(join(out, file)), file).toBe(true);
    const errors = await open(page, file);
    const hrefs = await page.locator('use').evaluateAll((uses) => uses.map((use) => use.getAttribute('href') ?? ''));
    expect(hrefs.length, `${file} has icons`).toBeGreaterThan(0);
    expect(hrefs.filter((href) => !href.startsWith('#icon-'))).toEqual([]);
    // Every icon is drawn: the symbol each refers to is in the page.
    const missing = await page.evaluate((ids) => ids.filter((id) => !document.getElementById(id.slice(1))), [...new Set(hrefs)]);
    expect(missing).toEqual([]);
    expect(errors, file).toEqual([]);
  }
});

test("the first page's Where next links the untrusted content, traces, UI adapters and extensions guides, which exist", async ({ page }) => {
  await open(page, 'index.html');
  const whereNext = page.locator('h2:has-text("Where next") + ul');
  for (const name of ['untrusted content', 'traces', 'UI adapters', 'browser extensions']) {
    const link = whereNext.getByRole('link', { name, exact: true });
    await expect(link, name).toHaveCount(1);
    const target = await link.evaluate((a) => (a as HTMLAnchorElement).href);
    expect(existsSync(new URL(target).pathname), `${name} -> ${target}`).toBe(true);
  }
});
