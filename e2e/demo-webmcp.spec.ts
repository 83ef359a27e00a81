// The demo offers its note tools to the browser's agents through WebMCP (Chromium launched with
// WebMCPTesting, as chromium.config.ts does): a browser agent finds them, reads notes freely, and
// deleting waits for the person's answer in the demo's own dialog.
import { expect, type Page, test } from '@playwright/test';
import { ask, modelRequests, openDemo, script, useFakeModel } from './demo-helpers.js';

interface AgentTool {
  name: string;
  annotations?: { readOnlyHint?: boolean };
}

/** Call an offered tool as a browser agent would: getTools, then executeTool; resolves with its text or the rejection's name. */
function callAsAgent(page: Page, name: string, input: object): Promise<string> {
  return page.evaluate(
    async ({ name, input }) => {
      const context = (document as unknown as { modelContext: { getTools(): Promise<AgentTool[]>; executeTool(t: AgentTool, i: object): Promise<string> } })
        .modelContext;
      const tool = (await context.getTools()).find((t) => t.name === name);
      if (!tool) return 'not offered';
      return context.executeTool(tool, input).catch((error: { name?: string }) => `rejected: ${String(error?.name)}`);
    },
    { name, input },
  );
}

test('the note tools are offered through WebMCP: a browser agent reads freely, and deleting asks the person', async ({ page }) => {
  await openDemo(page);
  const badge = page.locator('#webmcp-badge');
  await expect(badge).toHaveAttribute('data-webmcp', 'on');
  await expect(badge).toHaveText('WebMCP on: 4 note tools offered, no page tools found');

  const annotations = await page.evaluate(async () =>
    ((await (document as unknown as { modelContext: { getTools(): Promise<AgentTool[]> } }).modelContext.getTools()) as AgentTool[]).map((t) => [
      t.name,
      t.annotations?.readOnlyHint === true,
    ]),
  );
  expect(Object.fromEntries(annotations)).toMatchObject({ search_notes: true, add_note: false, update_note: false, delete_note: false });

  const found = JSON.parse(await callAsAgent(page, 'search_notes', { query: '' })) as Array<{ id: string; title: string }>;
  expect(found).toHaveLength(3);

  // Denied in the dialog: the note stays, the agent is refused.
  const denied = callAsAgent(page, 'delete_note', { id: found[0]!.id });
  const dialog = page.locator('#webmcp-approval');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('p')).toContainText('delete_note');
  await dialog.locator('button[value="deny"]').click();
  expect(await denied).toBe('rejected: UnknownError');
  await expect(page.locator('#note-list li')).toHaveCount(3);

  // Allowed: the note goes, and the list shows it at once.
  const allowed = callAsAgent(page, 'delete_note', { id: found[0]!.id });
  await expect(dialog).toBeVisible();
  await dialog.locator('button[value="allow"]').click();
  expect(await allowed).toBe(`Deleted "${found[0]!.title}"`); // a string result crosses as it is
  await expect(page.locator('#note-list li')).toHaveCount(2);
});

test('a tool the page itself declares through WebMCP is listed in the badge and serves the assistant', async ({ page }) => {
  // Declared by the page (another script of it), once the document has loaded, as WebMCP wants.
  await page.addInitScript(() => {
    addEventListener('load', () => {
      const context = (document as unknown as { modelContext: { registerTool(tool: object): Promise<void> } }).modelContext;
      void context.registerTool({
        name: 'page_clock',
        description: 'The time on this page',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true },
        execute: async () => JSON.stringify({ time: 'teatime' }),
      });
    });
  });
  await openDemo(page);
  const badge = page.locator('#webmcp-badge');
  await expect(badge).toHaveText('WebMCP on: 4 note tools offered, 1 page tool found');
  await expect(badge).toHaveAttribute('data-found', 'page_clock');
  await expect(badge).toHaveAttribute('title', /Page tools handed to the assistant: page_clock\./);

  await useFakeModel(page);
  await script(page, [{ toolCalls: [{ name: 'page_clock', arguments: {} }] }, { text: 'It is teatime.' }]);
  await ask(page, 'What time is it on the page?');
  await expect(page.locator('#chat li.assistant').last()).toHaveText('It is teatime.');
  const tool = (await modelRequests(page))[1]!.messages.filter((m) => m.role === 'tool').at(-1)!;
  expect(JSON.parse(tool.content ?? '')).toEqual({ ok: true, output: { time: 'teatime' } });
  await expect(page.locator('#timeline li.lane.call[data-name="page_clock"]')).toHaveAttribute('data-status', 'done');
});
