// The AI SDK example (demo/ai-sdk/), built and served: useChat on ambiChatTransport, its page tools,
// an approval card, and a reload while the card waits, on the scripted model and on an OpenAI-compatible server.
import { expect, type Page, test } from '@playwright/test';
import { FAKE_BASE_URL, script } from './demo-helpers.js';

const chat = (page: Page) => page.getByRole('region', { name: 'Assistant' });

async function send(page: Page, text: string): Promise<void> {
  await chat(page).getByRole('textbox', { name: 'Message to Assistant' }).fill(text);
  await chat(page).getByRole('button', { name: 'Send' }).click();
}

const items = (page: Page) => page.locator('#list li');

test('the scripted model adds to the list on the page, then empties it once the card is approved', async ({ page }) => {
  await page.goto('/demo/ai-sdk/');
  await expect(page.locator('#engine')).toHaveText('scripted model (no network)');
  await send(page, 'Add milk and bread');
  await expect(chat(page).getByText('I added milk and bread to your list.')).toBeVisible();
  await expect(items(page)).toHaveText(['milk', 'bread']);

  await send(page, 'Now empty it');
  const approve = chat(page).getByRole('button', { name: 'Approve clear_list' });
  await expect(approve).toBeVisible();
  await expect(items(page)).toHaveCount(2);
  await approve.click();
  await expect(chat(page).getByText('The list is empty now.')).toBeVisible();
  await expect(items(page)).toHaveCount(0);
});

test('on an OpenAI-compatible server: reloaded while the card waits, useChat resumes and asks again, and the call runs once', async ({ page }) => {
  await page.goto('/demo/ai-sdk/');
  await page.getByText('Use an OpenAI-compatible server').click();
  await page.getByLabel('Base URL').fill(FAKE_BASE_URL);
  await page.getByLabel('Model').fill('fake-model');
  await page.getByRole('button', { name: /Use it/ }).click();
  await expect(page.locator('#engine')).toHaveText(`fake-model at ${FAKE_BASE_URL}`);

  await script(page, [
    { toolCalls: [{ name: 'add_item', arguments: { item: 'tea' } }] },
    { text: 'Tea is on the list.' },
    { toolCalls: [{ name: 'clear_list', arguments: {} }] },
    { text: 'Emptied after the reload.' },
  ]);
  await send(page, 'Add tea');
  await expect(chat(page).getByText('Tea is on the list.')).toBeVisible();
  await send(page, 'Empty the list');
  await expect(chat(page).getByRole('button', { name: 'Approve clear_list' })).toBeVisible();

  await page.reload();
  await expect(items(page)).toHaveText(['tea']);
  const approve = chat(page).getByRole('button', { name: 'Approve clear_list' });
  await expect(approve).toBeVisible();
  await approve.click();
  await expect(chat(page).getByText('Emptied after the reload.')).toBeVisible();
  await expect(items(page)).toHaveCount(0);
  await expect(chat(page).getByRole('group', { name: 'Call of clear_list' })).toHaveAttribute('data-state', 'output-available');
});
