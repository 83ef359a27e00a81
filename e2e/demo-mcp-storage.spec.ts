// Settings → MCP servers, as a person who removes and adds servers, or pastes a URL with a key
// in its query, would meet it: a removed server's prefix (and so its tools' names, which a
// standing "Always allow" names) is never handed to another server, and a query value stays
// in the tab (sessionStorage), never in localStorage.
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { type EverythingServer, startEverythingServer } from '../tests/support/mcp-everything.js';
import { ask, modelRequests, openDemo, persistedText, script, useFakeModel } from './demo-helpers.js';

let server: EverythingServer;

test.beforeAll(async () => {
  server = await startEverythingServer(fileURLToPath(new URL('../scripts/mcp-demo-server.mjs', import.meta.url)));
});

test.afterAll(async () => {
  await server?.stop();
});

const QUERY_SECRET = 'sk-query-0123456789';

async function addServer(page: Page, url: string, { ask = false } = {}): Promise<void> {
  if (!(await page.locator('#settings').isVisible())) await page.locator('#open-settings').click();
  await page.locator('#settings input[name="mcpURL"]').fill(url);
  await page.locator('#settings input[name="mcpAsk"]').setChecked(ask);
  await page.locator('#mcp-add-button').click();
}

async function removeServers(page: Page): Promise<void> {
  if (!(await page.locator('#settings').isVisible())) await page.locator('#open-settings').click();
  for (const remove of await page.locator('#mcp-servers > li button.remove').all()) await remove.click();
  await expect(page.locator('#mcp-servers > li')).toHaveCount(0);
}

const saveSettings = (page: Page) => page.locator('#settings button[value="save"]').click();

test('a server added after another was removed gets a prefix of its own: "Always allow" given to the removed one does not carry over', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
  await addServer(page, server.url, { ask: true });
  await expect(page.locator('#mcp-servers > li [data-tool="mcp_echo"]')).toBeVisible();
  await saveSettings(page);

  // "Always allow" for the first server's echo, in this conversation.
  await script(page, [{ toolCalls: [{ name: 'mcp_echo', arguments: { message: 'first' } }] }, { text: 'Echoed.' }]);
  await ask(page, 'Echo through the first server', false);
  await page.locator('#chat li.approval button.always').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');

  // The first server goes; the next one added gets a name of its own for each tool.
  await removeServers(page);
  await addServer(page, `${server.url}?second=1`, { ask: true });
  const item = page.locator('#mcp-servers > li');
  await expect(item).toHaveAttribute('data-state', 'ready');
  await expect(item.locator('[data-tool="mcp2_echo"]')).toBeVisible();
  await expect(item.locator('[data-tool^="mcp_"]')).toHaveCount(0);
  await saveSettings(page);

  await script(page, [{ toolCalls: [{ name: 'mcp2_echo', arguments: { message: 'second' } }] }, { text: 'Echoed again.' }]);
  await ask(page, 'Echo through the second server', false);
  // Asked, not decided by the first server's standing approval.
  const card = page.locator('#chat li.approval').last();
  await expect(card).toContainText('Allow mcp2_echo {"message":"second"}?');
  await expect(card.locator('button.approve')).toBeVisible();
  const [first] = (await modelRequests(page)) as Array<{ tools?: Array<{ function: { name: string } }> }>;
  expect(first!.tools!.map((t) => t.function.name)).not.toContain('mcp_echo');
  await card.locator('button.approve').click();
  await expect(page.locator('#chat li.assistant').last()).toHaveText('Echoed again.');

  // Even after a reload, with no server listed, the next one is mcp3.
  await removeServers(page);
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await addServer(page, server.url);
  await expect(page.locator('#mcp-servers > li [data-tool="mcp3_echo"]')).toBeVisible();
});

test("a URL's query value is kept in this tab, never in localStorage, and is shown redacted", async ({ page, context }) => {
  await openDemo(page);
  await useFakeModel(page);
  await addServer(page, `${server.url}?key=${QUERY_SECRET}`);
  const item = page.locator('#mcp-servers > li');
  await expect(item).toHaveAttribute('data-state', 'ready');
  await expect(item.locator('strong')).toHaveText(`${server.url}?key=***`);
  await saveSettings(page);

  expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(QUERY_SECRET);
  expect(await persistedText(page)).not.toContain(QUERY_SECRET);
  expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).toContain(QUERY_SECRET);

  // The assistant connects with the whole URL in this tab.
  await script(page, [{ toolCalls: [{ name: 'mcp_echo', arguments: { message: 'hi' } }] }, { text: 'Echoed.' }]);
  await ask(page, 'Echo');
  await expect(page.locator('#chat li.assistant').last()).toHaveText('Echoed.');

  // Another tab has no query: the server is said not available there, and how to mend it.
  const other = await context.newPage();
  await other.goto('/');
  await expect(other.locator('body')).toHaveAttribute('data-ready', 'true');
  await script(other, [{ text: 'No server here.' }]);
  await ask(other, 'Hello');
  await expect(other.locator('#chat li.error').last()).toContainText('remove it and add it again');
  expect((await other.locator('body').textContent()) ?? '').not.toContain(QUERY_SECRET);
  await other.close();
});

test('a server an older demo saved with its query in localStorage has the query moved to the tab at once', async ({ page }) => {
  await page.addInitScript(
    ([url, id]) => {
      if (localStorage.getItem('ambi-demo:mcp-servers') === null) localStorage.setItem('ambi-demo:mcp-servers', JSON.stringify([{ id, url, prefix: 'mcp' }]));
    },
    [`${server.url}?key=${QUERY_SECRET}`, 'old-entry'],
  );
  await openDemo(page);
  await page.locator('#open-settings').click();
  await expect(page.locator('#mcp-servers > li')).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('#mcp-servers > li strong')).toHaveText(`${server.url}?key=***`);
  expect(await page.evaluate(() => localStorage.getItem('ambi-demo:mcp-servers'))).not.toContain(QUERY_SECRET);
  expect(await page.evaluate(() => sessionStorage.getItem('ambi-demo:mcp-query:old-entry'))).toBe(`?key=${QUERY_SECRET}`);
});
