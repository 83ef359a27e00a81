// Settings → MCP servers: a server the person adds serves the assistant's calls. The server is
// the reference one (server-everything), started here as `npm run mcp-demo-server` starts it,
// on 127.0.0.1 and a free port: no network beyond this machine.
import { createServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { FAKE_ORIGIN } from './ports.js';
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

const TOKEN = 'mcp-bearer-secret';

/** Add a server in Settings (opened if it is not), the dialog left open. */
async function addServer(page: Page, url: string, { token = '', ask = false } = {}): Promise<void> {
  if (!(await page.locator('#settings').isVisible())) await page.locator('#open-settings').click();
  await page.locator('#settings input[name="mcpURL"]').fill(url);
  await page.locator('#settings input[name="mcpToken"]').fill(token);
  await page.locator('#settings input[name="mcpAsk"]').setChecked(ask);
  await page.locator('#mcp-add-button').click();
}

test('an MCP server added in Settings lists its tools with their policies and serves a call', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
  await addServer(page, server.url, { token: TOKEN });
  const item = page.locator('#mcp-servers > li');
  await expect(item).toHaveAttribute('data-state', 'ready');
  await expect(item.locator('strong')).toHaveText(server.url);
  await expect(item).toContainText('(with a bearer token)');
  // Policies as the SDK derives them from the server's annotations.
  await expect(item.locator('[data-tool="mcp_echo"]')).toHaveText('mcp_echo: read-only, runs without asking');
  await expect(item.locator('[data-tool="mcp_toggle-simulated-logging"]')).toHaveText('mcp_toggle-simulated-logging: changes things, runs without asking');
  // server-everything marks every tool non-destructive, so none asks (an unannotated tool would: MCP's defaults).
  await expect(item.locator('li[data-needs-approval="true"]')).toHaveCount(0);
  await page.locator('#settings button[value="save"]').click();

  // The message holds HTML: the server's answer comes back with it, and it stays text on the page.
  const message = 'hello from the demo <img src=x onerror="window.__mcpPwned = true">';
  await script(page, [{ toolCalls: [{ name: 'mcp_echo', arguments: { message } }] }, { text: 'The server echoed.' }]);
  await ask(page, 'Echo through MCP');
  await expect(page.locator('#chat li.assistant').last()).toHaveText('The server echoed.');
  const [first, second] = (await modelRequests(page)) as Array<{
    tools?: Array<{ function: { name: string } }>;
    messages: Array<{ role: string; content: string | null }>;
  }>;
  expect(first!.tools!.map((t) => t.function.name)).toContain('mcp_echo');
  const result = JSON.parse(second!.messages.filter((m) => m.role === 'tool').at(-1)!.content ?? '');
  expect(result).toEqual({ ok: true, output: `Echo: ${message}` });
  // The call has its lane on the timeline, and its detail shows the server's answer as text.
  const lane = page.locator('#timeline li.lane.call[data-name="mcp_echo"]');
  await expect(lane).toHaveAttribute('data-status', 'done');
  // The MCP client came with chunks the AI SDK example's page shares: its stylesheet styles nothing here (the page keeps the window's width).
  expect(await page.evaluate(() => document.body.getBoundingClientRect().width)).toBe(page.viewportSize()!.width);
  await lane.locator('.track').click();
  await expect(page.locator('#timeline .detail-result')).toHaveText(`Echo: ${message}`);
  expect(await page.locator('#timeline img, #chat img').count()).toBe(0);
  expect(await page.evaluate(() => (window as { __mcpPwned?: boolean }).__mcpPwned ?? false)).toBe(false);

  // The token stays in this tab: sessionStorage, never localStorage or IndexedDB.
  expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).toContain(TOKEN);
  expect(await persistedText(page)).not.toContain(TOKEN);

  // Removed: gone from the list and from the assistant's tools.
  await page.locator('#open-settings').click();
  await page.locator('#mcp-servers > li button.remove').click();
  await expect(page.locator('#mcp-servers > li')).toHaveCount(0);
  await page.locator('#settings button[value="save"]').click();
  expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).not.toContain(TOKEN);
  await script(page, [{ text: 'No MCP now.' }]);
  await ask(page, 'Which tools now?');
  const [after] = (await modelRequests(page)) as Array<{ tools?: Array<{ function: { name: string } }> }>;
  expect(after!.tools!.map((t) => t.function.name)).not.toContain('mcp_echo');
});

test('a server that cannot be reached is said in Settings and in the chat, and the assistant still answers', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
  // A port nothing listens on (the fake model server's, on a path that is no MCP endpoint).
  await addServer(page, `${FAKE_ORIGIN}/not-mcp?key=sk-query-secret`);
  const item = page.locator('#mcp-servers > li');
  await expect(item).toHaveAttribute('data-state', 'error');
  await expect(item).toContainText('Not reachable (mcp_connect_failed)');
  await expect(item.locator('strong')).toHaveText(`${FAKE_ORIGIN}/not-mcp?key=***`);
  await page.locator('#settings button[value="save"]').click();
  await script(page, [{ text: 'Still here.' }]);
  await ask(page, 'Hello');
  await expect(page.locator('#chat li.error').last()).toContainText(`The MCP server ${FAKE_ORIGIN}/not-mcp?key=*** is not available (mcp_connect_failed)`);
  await expect(page.locator('#chat li.assistant').last()).toHaveText('Still here.');
  // A secret in the URL's query is never shown.
  expect((await page.locator('body').textContent()) ?? '').not.toContain('sk-query-secret');
});

test('a URL that is no http(s) URL, or carries credentials, is not added', async ({ page }) => {
  await openDemo(page);
  await addServer(page, 'javascript:alert(1)');
  await expect(page.locator('#mcp-add-problem')).toHaveText('Not added: the URL must start with http:// or https://');
  await addServer(page, 'http://user:pw@127.0.0.1:1/mcp');
  await expect(page.locator('#mcp-add-problem')).toContainText('Not added: put a token in the token field');
  await expect(page.locator('#mcp-servers > li')).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('ambi-demo:mcp-servers'))).toBeNull();
});

test('a server added with "ask me before every call": its calls wait for the approval card', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
  await addServer(page, server.url, { ask: true });
  const item = page.locator('#mcp-servers > li');
  await expect(item).toHaveAttribute('data-state', 'ready');
  await expect(item).toContainText('(every call asks you first)');
  await expect(item.locator('[data-tool="mcp_echo"]')).toHaveText('mcp_echo: read-only, asks for approval');
  await expect(item.locator('li[data-needs-approval="false"]')).toHaveCount(0);
  await page.locator('#settings button[value="save"]').click();

  await script(page, [{ toolCalls: [{ name: 'mcp_echo', arguments: { message: 'after you' } }] }, { text: 'Echoed once approved.' }]);
  await ask(page, 'Echo, but ask first', false);
  const approval = page.locator('#chat li.approval');
  await expect(approval).toContainText('Allow mcp_echo {"message":"after you"}?');
  // One of the tools the server lists here is open-world (untrusted): its description, offered in the request, is what the card names.
  await expect(approval.locator('.untrusted p')).toHaveText(
    `Proposed after the model read: the tool descriptions of the MCP server at ${server.url} (mcp_gzip-file-as-resource)`,
  );
  const lane = page.locator('#timeline li.lane.call[data-name="mcp_echo"]');
  await expect(lane).toHaveAttribute('data-status', 'approval');
  await approval.locator('button.approve').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
  await expect(page.locator('#chat li.assistant').last()).toHaveText('Echoed once approved.');
  await expect(lane).toHaveAttribute('data-status', 'done');
  await expect(lane.locator('.seg[data-kind="approval"]')).toHaveCount(1);
});

test('Stop ends the wait for an MCP server that accepts the connection and never answers', async ({ page }) => {
  // A server that takes the connection and says nothing.
  const held: Socket[] = [];
  const silent = createServer((socket) => held.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const { port } = silent.address() as { port: number };
  try {
    await openDemo(page);
    await useFakeModel(page);
    await addServer(page, `http://127.0.0.1:${port}/mcp`);
    await expect(page.locator('#mcp-servers > li')).toHaveAttribute('data-state', 'pending');
    await page.locator('#settings button[value="save"]').click();
    await ask(page, 'Hello', false);
    await expect(page.locator('body')).toHaveAttribute('data-run', 'running');
    await expect.poll(() => held.length).toBeGreaterThan(1); // the settings' look and the runner's connection
    await page.locator('#stop').click();
    await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
    await expect(page.locator('#chat li.error').last()).toHaveText('Stopped.');
  } finally {
    for (const socket of held) socket.destroy();
    silent.close();
  }
});
