import { expect, test } from '@playwright/test';
import { ask, FAKE_BASE_URL, modelRequests, openDemo, persistedText, script, useFakeModel } from './demo-helpers.js';
import { FAKE_OPENAI_PORT, FAKE_ORIGIN } from './ports.js';

const FAKE_SERVER = new URL(FAKE_BASE_URL).origin;

test('a leaf asking for approval shows its card, and approving it lets the leaf go on', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
  await script(page, [
    { toolCalls: [{ name: 'spawn_leaf', arguments: { task: 'Delete the groceries note' } }] },
    { toolCalls: [{ name: 'delete_note', arguments: { id: 'n-groceries' } }] }, // the leaf's turn
    { text: 'Deleted the groceries note.' }, // the leaf's answer
    { text: 'My helper deleted it.' },
  ]);
  await ask(page, 'Have a helper delete the groceries note', false);
  const approval = page.locator('#chat li.approval');
  await expect(approval).toContainText('Allow delete_note {"id":"n-groceries"}?');
  await approval.locator('button.approve').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
  await expect(page.locator('[data-note-id="n-groceries"]')).toHaveCount(0);
  await expect(page.locator('#leaves li').last()).toHaveAttribute('data-status', 'done');
  await expect(page.locator('#chat li.assistant').last()).toHaveText('My helper deleted it.');
});

test('DOM tools never read password fields or private parts of the page, so the API key never reaches the model', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page); // the Settings password field now holds sk-test-secret
  // Things the app itself shows: a password field in the editor and a part marked private.
  await page.evaluate(() => {
    const pin = Object.assign(document.createElement('input'), { type: 'password', name: 'pin', value: 'pin-4711' });
    document.querySelector('#editor-form')!.append(pin);
    const memo = Object.assign(document.createElement('p'), { textContent: 'private-memo-text' });
    memo.dataset.private = '';
    memo.append(Object.assign(document.createElement('input'), { name: 'memo', value: 'private-memo-field' }));
    document.querySelector('#notes')!.append(memo);
  });
  // A prompt-injected note steered the model to read everything it can.
  await script(page, [
    {
      toolCalls: [
        { name: 'read_page', arguments: { selector: 'body' } },
        { name: 'read_page', arguments: { selector: '#settings' } },
        { name: 'read_page', arguments: { selector: 'input[name="apiKey"]' } },
        { name: 'read_page', arguments: {} },
        { name: 'read_page', arguments: { selector: '[data-private]' } },
      ],
    },
    { text: 'ok' },
  ]);
  await ask(page, 'Read the page');

  const requests = JSON.stringify(await modelRequests(page));
  for (const secret of ['sk-test-secret', 'pin-4711', 'private-memo-text', 'private-memo-field']) {
    expect(requests).not.toContain(secret);
    expect(await persistedText(page)).not.toContain(secret);
  }
  const results = (await modelRequests(page))[1]!.messages.filter((m) => m.role === 'tool').map((m) => JSON.parse(m.content ?? ''));
  expect(results[0]).toMatchObject({ ok: true, output: expect.stringContaining('Quarterly numbers') }); // the rest is still read
  expect(results[0].output).toContain('jan,1200'); // and typed values outside private parts too
  for (const refused of [results[1], results[2], results[4]])
    expect(refused).toMatchObject({ ok: false, error: { code: 'tool_error', message: expect.stringContaining('private') } });
  expect(results[3]).toMatchObject({ ok: true, output: expect.stringContaining('Trip to Lisbon') });
});

test('a corrupted stored message: the demo still boots, says so, and a new conversation works', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
  await script(page, [{ text: 'Stored answer.' }]);
  await ask(page, 'Remember this');
  // A row loses its message (a bug elsewhere, a hand edit, a broken migration).
  await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('ambi-demo');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const store = db.transaction('messages', 'readwrite').objectStore('messages');
    await new Promise<void>((resolve, reject) => {
      const cursor = store.openCursor();
      cursor.onsuccess = () => {
        const { conversationId, seq } = cursor.result!.value as { conversationId: string; seq: number };
        const put = cursor.result!.update({ conversationId, seq });
        put.onsuccess = () => resolve();
        put.onerror = () => reject(put.error);
      };
      cursor.onerror = () => reject(cursor.error);
    });
    db.close();
  });

  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#note-list li')).toHaveCount(3);
  await expect(page.locator('#chat li.error')).toContainText('New conversation');
  await page.locator('#new-conversation').click();
  await expect(page.locator('#chat li')).toHaveCount(0);
  await script(page, [{ text: 'A fresh start.' }]);
  await ask(page, 'Hello again');
  await expect(page.locator('#chat li.assistant').last()).toHaveText('A fresh start.');
  expect((await modelRequests(page))[0]!.messages.map((m) => m.role)).toEqual(['system', 'user']);
});

test('Stop during a local model download cancels the download', async ({ page }) => {
  await openDemo(page);
  await page.locator('#open-settings').click();
  await page.locator('#settings input[name="mode"][value="local"]').check();
  await page.locator('#settings input[name="modelURL"]').fill(`${FAKE_SERVER}/models/stalled.gguf`);
  await page.locator('#settings button[value="save"]').click();
  const before = (await (await page.request.get(`${FAKE_SERVER}/__downloads`)).json()) as { started: number; closed: number };

  await ask(page, 'Hello, local model', false);
  await expect(page.locator('#model-status')).toHaveText(/^Downloading the model: \d+%$/);
  await page.locator('#stop').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
  await expect(page.locator('#chat li.error').last()).toHaveText('Stopped.');
  await expect(page.locator('#model-status')).toBeHidden();
  await expect
    .poll(async () => (await page.request.get(`${FAKE_SERVER}/__downloads`)).json())
    .toEqual({ started: before.started + 1, closed: before.closed + 1 });
});

test('an approval card left unanswered is retired when Stop ends its run', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
  await script(page, [{ toolCalls: [{ name: 'delete_note', arguments: { id: 'n-groceries' } }] }]);
  await ask(page, 'Delete the groceries note', false);
  const approval = page.locator('#chat li.approval');
  await expect(approval.locator('button.approve')).toBeVisible();
  await page.locator('#stop').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
  await expect(approval.locator('button')).toHaveCount(0);
  await expect(approval).toHaveText('Allow delete_note {"id":"n-groceries"}? Not answered: the run ended.');
  await expect(page.locator('[data-note-id="n-groceries"]')).toHaveCount(1);
});

test('secrets in the base URL never show: a key inside it is refused on Save, a query value is masked in the header', async ({ page }) => {
  await openDemo(page);
  await page.locator('#open-settings').click();
  await page.locator('#settings input[name="mode"][value="openai"]').check();
  await page.locator('#settings input[name="baseURL"]').fill(`http://user:sk-url-secret@127.0.0.1:${FAKE_OPENAI_PORT}/v1?api-key=sk-query-secret`);
  await page.locator('#settings input[name="model"]').fill('fake-model');
  await page.locator('#settings button[value="save"]').click();
  // Refused where it is typed, saying why, and quoting the URL without its secrets.
  await expect(page.locator('#settings')).toBeVisible();
  await expect(page.locator('#settings-error')).toContainText('must not hold a user name or password');
  await expect(page.locator('#mode-label')).toHaveText('Offline walkthrough (no model)');
  let shown = (await page.locator('body').textContent()) ?? '';
  expect(shown).not.toContain('sk-url-secret');
  expect(shown).not.toContain('sk-query-secret');

  await page.locator('#settings input[name="baseURL"]').fill(`http://127.0.0.1:${FAKE_OPENAI_PORT}/v1?api-key=sk-query-secret`);
  await page.locator('#settings button[value="save"]').click();
  await expect(page.locator('#mode-label')).toHaveText(`Model: fake-model at ${FAKE_ORIGIN}/v1?api-key=***`);
  shown = (await page.locator('body').textContent()) ?? '';
  expect(shown).not.toContain('sk-query-secret');
});
