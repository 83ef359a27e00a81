import { expect, test } from '@playwright/test';
import { ask, modelRequests, openDemo, persistedText, script, useFakeModel } from './demo-helpers.js';

test.beforeEach(async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
});

test('a question makes the model use DOM, data and worker tools, and the page changes', async ({ page }) => {
  await script(page, [
    {
      text: 'Looking. ',
      toolCalls: [
        { name: 'read_page', arguments: { selector: '#data' } },
        { name: 'search_notes', arguments: { query: 'lisbon' } },
      ],
    },
    {
      toolCalls: [
        { name: 'add_note', arguments: { title: 'Visitors summary', body: 'Mean visitors 1435.' } },
        { name: 'fill_field', arguments: { field: 'body', value: 'Drafted by the assistant' } },
        { name: 'highlight', arguments: { selector: '[data-note-id="n-lisbon"]' } },
        { name: 'csv_stats', arguments: { csv: 'month,visitors\njan,1200\nfeb,1670' } },
      ],
    },
    { text: 'Added a summary note and highlighted your Lisbon note.', chunkDelayMs: 5 },
  ]);
  await ask(page, 'Summarise the visitor numbers into a note');

  await expect(page.locator('#note-list li', { hasText: 'Visitors summary' })).toHaveCount(1);
  await expect(page.locator('#editor textarea[name="body"]')).toHaveValue('Drafted by the assistant');
  await expect(page.locator('[data-note-id="n-lisbon"]')).toHaveClass(/highlighted/);
  await expect(page.locator('#chat li.assistant').last()).toHaveText('Added a summary note and highlighted your Lisbon note.');

  const requests = await modelRequests(page);
  expect(requests).toHaveLength(3);
  const results = requests[2]!.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content ?? ''));
  expect(results[0].output).toContain('jan,1200'); // read_page saw the CSV field
  expect(results[1].output).toEqual([expect.objectContaining({ id: 'n-lisbon' })]);
  expect(results.at(-1)).toEqual({
    ok: true,
    output: { rows: 2, columns: [{ column: 'visitors', count: 2, mean: 1435, min: 1200, max: 1670, stddev: 235 }], computedIn: 'worker' },
  });
  await expect(page.locator('#timeline')).toContainText('csv_stats finished');
});

test('a delete waits for approval: approve deletes, deny keeps the note and tells the model', async ({ page }) => {
  let workers = 0;
  page.on('worker', () => workers++);
  await script(page, [
    { toolCalls: [{ name: 'delete_note', arguments: { id: 'n-groceries' } }] },
    { text: 'Deleted.' },
    { toolCalls: [{ name: 'delete_note', arguments: { id: 'n-numbers' } }] },
    { text: 'Kept it.' },
  ]);
  await ask(page, 'Delete the groceries note', false);
  const approval = page.locator('#chat li.approval').last();
  await expect(approval).toContainText('Allow delete_note');
  await expect(page.locator('[data-note-id="n-groceries"]')).toHaveCount(1); // nothing happens before the answer
  await approval.locator('button.approve').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
  await expect(page.locator('[data-note-id="n-groceries"]')).toHaveCount(0);
  const workersAfterFirst = workers;
  expect(workersAfterFirst).toBeGreaterThan(0);

  await ask(page, 'Delete the numbers note', false);
  await page.locator('#chat li.approval').last().locator('button.deny').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
  await expect(page.locator('[data-note-id="n-numbers"]')).toHaveCount(1);
  const denied = (await modelRequests(page))
    .at(-1)!
    .messages.filter((m) => m.role === 'tool')
    .at(-1)!;
  expect(JSON.parse(denied.content ?? '').error).toEqual({ code: 'denied', message: 'The user denied this call to "delete_note": The person declined' });
  // The second question reused the first one's runner: no worker was started for it.
  expect(workers).toBe(workersAfterFirst);
});

test('the stop button aborts a run mid-stream', async ({ page }) => {
  await script(page, [{ text: 'This is a long answer that streams slowly, word by word, until someone stops it.', chunkDelayMs: 400 }]);
  await ask(page, 'Tell me a long story', false);
  await expect(page.locator('#chat li.assistant').last()).not.toBeEmpty();
  await page.locator('#stop').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
  await expect(page.locator('#chat li.error').last()).toHaveText('Stopped.');
  await expect(page.locator('#timeline')).toContainText('run failed: aborted');
});

test('a leaf run appears in the leaf panel with its result', async ({ page }) => {
  await script(page, [
    { toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'List the note titles', tools: ['search_notes'] } }] },
    { toolCalls: [{ name: 'search_notes', arguments: { query: '' } }] },
    { text: 'Groceries, Trip to Lisbon, Quarterly numbers.' },
    { text: 'Your notes: Groceries, Trip to Lisbon, Quarterly numbers.' },
  ]);
  await ask(page, 'What notes do I have? Use a helper.');
  const leaf = page.locator('#leaves li').last();
  await expect(leaf).toHaveAttribute('data-status', 'done');
  await expect(leaf).toHaveText('List the note titles [done]: Groceries, Trip to Lisbon, Quarterly numbers.');
  // The leaf's call is nested under its spawn_leaf call on the timeline.
  const nested = page.locator('#timeline li.lane.call[data-depth="1"]');
  await expect(nested).toContainText('search_notes finished');
  expect(await nested.getAttribute('data-parent-call-id')).toBe(
    await page.locator('#timeline li.lane.call[data-name="spawn_leaf"]').getAttribute('data-lane-id'),
  );
});

test('a reload keeps the conversation, and the model sees it on the next turn', async ({ page }) => {
  await script(page, [{ text: 'Nice to meet you, Ada.' }, { text: 'You are Ada.' }]);
  await ask(page, 'My name is Ada.');
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#chat li.user')).toHaveText(['My name is Ada.']);
  await expect(page.locator('#chat li.assistant')).toHaveText(['Nice to meet you, Ada.']);
  await ask(page, 'What is my name?');
  const last = (await modelRequests(page)).at(-1)!;
  expect(last.messages.map((m) => [m.role, m.content])).toEqual([
    ['system', expect.stringContaining('notes app')],
    ['user', 'My name is Ada.'],
    ['assistant', 'Nice to meet you, Ada.'],
    ['user', 'What is my name?'],
  ]);
});

test('model output holding HTML is shown as text and never runs, in the chat, the notes and the timeline', async ({ page }) => {
  const injected = '<img src=x onerror="window.__pwned = true"> and <b>bold</b>';
  await script(page, [
    {
      toolCalls: [
        { name: 'add_note', arguments: { title: injected, body: injected } },
        { name: injected, arguments: { html: injected } }, // a tool name no tool has, made of HTML
      ],
    },
    { text: injected },
  ]);
  await ask(page, 'Say something dangerous');
  await expect(page.locator('#chat li.assistant').last()).toHaveText(injected);
  await expect(page.locator('#note-list li', { hasText: '<img src=x' })).toHaveCount(1);
  // The timeline's labels and its detail view show the model's and the tools' text as text.
  const unknown = page.locator('#timeline li.lane.call').nth(1);
  await expect(unknown.locator('.lane-label')).toContainText(`${injected} failed: unknown_tool`);
  await unknown.locator('.track').click();
  await expect(page.locator('#timeline .detail-arguments')).toContainText(`"html": "<img src=x onerror=\\"window.__pwned = true\\"> and <b>bold</b>"`);
  await page.locator('#timeline li.lane.call[data-name="add_note"] .track').click();
  await expect(page.locator('#timeline .detail-arguments')).toContainText('"title": "<img src=x');
  await expect(page.locator('#timeline .detail-result')).toContainText('<img src=x');
  expect(await page.locator('#chat img, #note-list img, #chat b, #timeline img, #timeline b').count()).toBe(0);
  expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned ?? false)).toBe(false);
});

test('the API key stays in sessionStorage, never in localStorage or IndexedDB', async ({ page }) => {
  await script(page, [{ text: 'ok' }]);
  await ask(page, 'hello');
  expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }))).toContain('sk-test-secret');
  expect(await persistedText(page)).not.toContain('sk-test-secret');
});

test('a server without native tools: calls travel as tagged text, and the reload shows the text without tags', async ({ page }) => {
  await page.locator('#open-settings').click();
  await page.locator('#settings input[name="nativeTools"]').uncheck();
  await page.locator('#settings button[value="save"]').click();
  await script(page, [
    { text: 'Adding it. [TOOL_CALL]{"name": "add_note", "args": {"title": "Tagged note", "body": "from text"}}[/TOOL_CALL]' },
    { text: 'Added.' },
  ]);
  await ask(page, 'Add a note');
  await expect(page.locator('#note-list li', { hasText: 'Tagged note' })).toHaveCount(1);
  const [first, second] = await modelRequests(page);
  expect(first).not.toHaveProperty('tools');
  expect(first!.messages[0]!.content).toContain('[TOOL_CALL]'); // the format is taught in the system prompt
  expect(second!.messages.at(-1)).toMatchObject({ role: 'user', content: expect.stringContaining('[runtime] Result of tool call') });
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#chat li.assistant')).toHaveText(['Adding it.', 'Added.']);
});
