// The demo's settings offer a hosted model with the person's own key (Anthropic, Google, OpenAI,
// built in the demo's own runner worker, demo/runner.worker.ts) and Chrome's built-in model
// where the browser has it. The providers' APIs are a loopback server replaying the streams their
// SDK's maintainers recorded; Chrome's model is a stand-in shaped as the Prompt API's specification.
import { expect, type Page, test } from '@playwright/test';
import { installLanguageModel } from '../tests/support/language-model-stand-in.js';
import { type ProviderServer, startProviderServer } from '../tests/support/provider-server.js';
import { ask, openDemo } from './demo-helpers.js';

let server: ProviderServer;
test.beforeAll(async () => {
  server = await startProviderServer();
});
test.afterAll(() => server.close());

const field = (page: Page, name: string) => page.locator(`#settings [name="${name}"]`);

test("Anthropic with a key typed on the page, through a proxy base URL: the answer comes from the demo's own runner worker", async ({ page }) => {
  const session = `demo-${crypto.randomUUID()}`;
  await openDemo(page);
  await page.locator('#open-settings').click();
  await page.locator('#settings input[name="mode"][value="hosted"]').check();
  for (const name of ['provider', 'providerModel', 'providerKey', 'providerBaseURL']) await expect(field(page, name)).toBeVisible();
  await field(page, 'provider').selectOption('anthropic');
  await field(page, 'providerModel').fill('claude-sonnet-4-5');
  await field(page, 'providerKey').fill('sk-ant-typed-by-the-person');
  await field(page, 'providerBaseURL').fill(`${server.root(session, 'run')}/anthropic`);
  await page.locator('#settings button[value="save"]').click();
  await expect(page.locator('#mode-label')).toHaveAttribute('data-mode', 'hosted');
  await expect(page.locator('#mode-label')).toContainText('Anthropic: claude-sonnet-4-5 via');

  await ask(page, 'Update my issue list');
  // The recorded reply called `updateIssueList` (not a tool of the demo's: its result says so), then answered.
  await expect(page.locator('#chat li.assistant').last()).toContainText('Is there anything I can help you with?');
  const [first] = server.requests(session);
  expect(first?.headers).toMatchObject({ 'x-api-key': 'sk-ant-typed-by-the-person', 'anthropic-dangerous-direct-browser-access': 'true' });
  expect(page.workers().some((worker) => /runner\.worker/.test(worker.url()))).toBe(true);
  // The key is in this tab's sessionStorage only.
  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain('sk-ant-typed-by-the-person');
});

test('a hosted model without a key or a proxy cannot be saved', async ({ page }) => {
  await openDemo(page);
  await page.locator('#open-settings').click();
  await page.locator('#settings input[name="mode"][value="hosted"]').check();
  await field(page, 'provider').selectOption('google');
  await expect(field(page, 'providerModel')).toHaveValue('gemini-2.5-flash');
  await page.locator('#settings button[value="save"]').click();
  await expect(page.locator('#settings-error')).toHaveText("Give your Google API key (it stays in this tab), or a proxy's base URL.");
});

test("Chrome's built-in model is not offered where the browser has none", async ({ page }) => {
  await openDemo(page);
  await page.locator('#open-settings').click();
  await expect(page.locator('#settings input[name="mode"][value="builtin"]')).toBeHidden();
});

test("Chrome's built-in model is offered where the browser has it, and answers (its download first)", async ({ page }) => {
  await page.addInitScript(installLanguageModel, {
    availability: 'downloadable' as const,
    progress: [0, 0.5, 1],
    replies: [['{"answer":', '"Hello from the built-in model."}']],
  });
  await openDemo(page);
  await page.locator('#open-settings').click();
  await page.locator('#settings input[name="mode"][value="builtin"]').check();
  await page.locator('#settings button[value="save"]').click();
  await expect(page.locator('#mode-label')).toHaveText("Chrome's built-in model, on this device");
  await ask(page, 'Say hello');
  await expect(page.locator('#chat li.assistant').last()).toHaveText('Hello from the built-in model.');
});
