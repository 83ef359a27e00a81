// The settings dialog: only the chosen mode's fields show, and Save refuses what could not work,
// saying why, so the header never shows an endpoint that has no URL or no model.
import { expect, type Page, test } from '@playwright/test';
import { FAKE_BASE_URL, openDemo } from './demo-helpers.js';

const dialog = (page: Page) => page.locator('#settings');
const field = (page: Page, name: string) => page.locator(`#settings input[name="${name}"]`);
const save = (page: Page) => page.locator('#settings button[value="save"]').click();

test("only the chosen mode's fields show", async ({ page }) => {
  await openDemo(page);
  await page.locator('#open-settings').click();
  await expect(page.locator('#settings input[name="mode"][value="offline"]')).toBeChecked();
  for (const name of ['baseURL', 'model', 'apiKey', 'modelFile', 'modelURL']) await expect(field(page, name)).toBeHidden();

  await page.locator('#settings input[name="mode"][value="openai"]').check();
  for (const name of ['baseURL', 'model', 'apiKey', 'nativeTools']) await expect(field(page, name)).toBeVisible();
  for (const name of ['modelFile', 'modelURL']) await expect(field(page, name)).toBeHidden();

  await page.locator('#settings input[name="mode"][value="local"]').check();
  for (const name of ['modelFile', 'modelURL']) await expect(field(page, name)).toBeVisible();
  for (const name of ['baseURL', 'model', 'apiKey']) await expect(field(page, name)).toBeHidden();
  // The MCP servers are not a mode's: they always show.
  await expect(field(page, 'mcpURL')).toBeVisible();
});

test('an incomplete endpoint cannot be saved: Save says what is missing, and the header keeps the last good settings', async ({ page }) => {
  await openDemo(page);
  await page.locator('#open-settings').click();
  await page.locator('#settings input[name="mode"][value="openai"]').check();

  await save(page);
  await expect(dialog(page)).toBeVisible();
  await expect(page.locator('#settings-error')).toHaveText("Give the endpoint's base URL, e.g. http://localhost:11434/v1.");

  await field(page, 'baseURL').fill('localhost:11434/v1');
  await save(page);
  await expect(page.locator('#settings-error')).toContainText('must start with http:// or https://');

  await field(page, 'baseURL').fill(FAKE_BASE_URL);
  await save(page);
  await expect(dialog(page)).toBeVisible();
  await expect(page.locator('#settings-error')).toHaveText("Give the model's name, e.g. qwen2.5:7b.");
  await expect(page.locator('#mode-label')).toHaveText('Offline walkthrough (no model)');

  // Cancel leaves everything as it was, and nothing incomplete was stored.
  await page.locator('#settings button[value="cancel"]').click();
  await expect(dialog(page)).toBeHidden();
  await page.reload();
  await expect(page.locator('#mode-label')).toHaveText('Offline walkthrough (no model)');

  await page.locator('#open-settings').click();
  await page.locator('#settings input[name="mode"][value="openai"]').check();
  await expect(page.locator('#settings-error')).toBeHidden(); // a new try starts without the old complaint
  await field(page, 'baseURL').fill(FAKE_BASE_URL);
  await field(page, 'model').fill('qwen2.5:7b');
  await save(page);
  await expect(dialog(page)).toBeHidden();
  await expect(page.locator('#mode-label')).toHaveText(`Model: qwen2.5:7b at ${FAKE_BASE_URL}`);
  await expect(page.locator('#mode-label')).toHaveAttribute('data-mode', 'openai');
});

test('a local model without a file or a URL cannot be saved', async ({ page }) => {
  await openDemo(page);
  await page.locator('#open-settings').click();
  await page.locator('#settings input[name="mode"][value="local"]').check();
  await save(page);
  await expect(dialog(page)).toBeVisible();
  await expect(page.locator('#settings-error')).toHaveText('Choose a .gguf file, or give a model URL.');
  await field(page, 'modelURL').fill('/models/tiny.gguf');
  await save(page);
  await expect(page.locator('#mode-label')).toHaveText('Local model in this browser: /models/tiny.gguf');
});

test('settings saved incomplete before Save checked them say so in the header', async ({ page }) => {
  await page.addInitScript(() => {
    if (!localStorage.getItem('ambi-demo:settings')) localStorage.setItem('ambi-demo:settings', JSON.stringify({ mode: 'openai', baseURL: '', model: '' }));
  });
  await openDemo(page);
  await expect(page.locator('#mode-label')).toHaveText('Endpoint not set up: open Settings');
  await expect(page.locator('#mode-label')).toHaveAttribute('data-mode', 'incomplete');
});
