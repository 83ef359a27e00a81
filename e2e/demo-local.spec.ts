import { expect, test } from '@playwright/test';
import { tinyGguf } from '../tests/support/tiny-gguf.js';
import { openDemo } from './demo-helpers.js';

// A tiny random-weight GGUF made on the spot: it writes nonsense, so we check that text streamed
// from llama.cpp in the worker and the run finished, not what it says. Its vocabulary has pieces
// of two and three letters, so the demo's prompt takes about as many tokens as in a real model's
// (a vocabulary of single characters would need four times as many, past a 4,096-token context).
const model = Buffer.from(tinyGguf({ seed: 7, vocabSize: 2000 }));

async function chooseLocal(page: import('@playwright/test').Page, how: { file?: boolean; url?: string }) {
  await page.locator('#open-settings').click();
  await page.locator('#settings input[name="mode"][value="local"]').check();
  if (how.file)
    await page.locator('#settings input[name="modelFile"]').setInputFiles({ name: 'tiny.gguf', mimeType: 'application/octet-stream', buffer: model });
  if (how.url) await page.locator('#settings input[name="modelURL"]').fill(how.url);
  await page.locator('#settings button[value="save"]').click();
  await expect(page.locator('#mode-label')).toHaveAttribute('data-mode', 'local');
}

test('chat with a local model picked as a .gguf file: everything runs in the browser', async ({ page }) => {
  await openDemo(page);
  await chooseLocal(page, { file: true });
  await expect(page.locator('#mode-label')).toHaveText('Local model in this browser: tiny.gguf');
  await page.locator('#ask-input').fill('Hello, local model');
  await page.locator('#send').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle', { timeout: 60_000 });
  await expect(page.locator('#timeline')).toContainText('run finished');
  await expect(page.locator('#chat li.assistant').last()).not.toBeEmpty();
  await expect(page.locator('#chat li.error')).toHaveCount(0);
});

test('a local model from a URL downloads once with progress, then starts from the cache', async ({ page }) => {
  let fetches = 0;
  await page.route('**/models/tiny.gguf', async (route) => {
    fetches++;
    await route.fulfill({ body: model, contentType: 'application/octet-stream', headers: { 'content-length': String(model.length) } });
  });
  await openDemo(page);
  await page.evaluate(() => caches.delete('ambi-web-models'));
  await chooseLocal(page, { url: '/models/tiny.gguf' });
  const statuses: string[] = [];
  await page.exposeFunction('__status', (text: string) => statuses.push(text));
  await page.evaluate(() => {
    const status = document.querySelector('#model-status')!;
    new MutationObserver(() => (window as unknown as { __status(t: string): void }).__status(status.textContent ?? '')).observe(status, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  await page.locator('#ask-input').fill('First start');
  await page.locator('#send').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle', { timeout: 60_000 });
  await expect(page.locator('#timeline')).toContainText('run finished');
  expect(statuses.some((s) => /^Downloading the model: \d+%$/.test(s))).toBe(true);
  expect(statuses).toContain('Loading the model in the worker…');
  expect(fetches).toBe(1);

  await page.locator('#ask-input').fill('Second start');
  await page.locator('#send').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle', { timeout: 60_000 });
  expect(fetches).toBe(1); // served from Cache Storage
});
