import { expect, type Page, test } from '@playwright/test';
import { openDemo } from './demo-helpers.js';

const DELETE_CARD = 'Allow delete_note {"id":"n-groceries"}?';

/** Start the offline walkthrough and wait until it stops at the delete approval. */
async function walkUntilTheCard(page: Page): Promise<void> {
  await page.locator('#walkthrough').click();
  await expect(page.locator('#chat li.approval')).toContainText(DELETE_CARD);
}

/** The delete's result lines the stored conversation shows after a reload (one per time the call ran). */
async function storedDeleteResults(page: Page): Promise<string[]> {
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  return page.locator('#chat li.tool', { hasText: '← delete_note' }).allTextContents();
}

test('reload mid-approval: the card comes back, and approving it after the reload deletes the note once', async ({ page }) => {
  await openDemo(page);
  await walkUntilTheCard(page);

  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#chat li.resume')).toContainText('delete_note waits for your approval');
  const card = page.locator('#chat li.approval');
  await expect(card).toContainText(DELETE_CARD);
  await expect(page.locator('[data-note-id="n-groceries"]')).toHaveCount(1); // nothing ran before the answer
  await card.locator('button.approve').click();

  await expect(page.locator('#chat li.assistant').last()).toHaveText('Done: the request interrupted by the reload was finished.');
  await expect(page.locator('[data-note-id="n-groceries"]')).toHaveCount(0);
  await expect(page.locator('#chat li.resume')).toHaveText('Interrupted run: resumed.');
  const results = await storedDeleteResults(page);
  expect(results).toHaveLength(1);
  expect(results[0]).toContain('"ok":true');
  // Nothing is left to ask after that reload.
  await expect(page.locator('#chat li.assistant').last()).toHaveText('Done: the request interrupted by the reload was finished.');
  await expect(page.locator('#chat li.approval')).toHaveCount(0);
});

test('two tabs: the card answered in one is never asked in the other, and the delete runs once', async ({ context }) => {
  const first = await context.newPage();
  await openDemo(first);
  await walkUntilTheCard(first);

  // The second tab lists the waiting approval and waits for the first tab's lock: it shows no card of its own.
  const second = await context.newPage();
  await second.goto('/');
  await expect(second.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(second.locator('#chat li.resume')).toContainText('delete_note waits for your approval');
  await expect(second.locator('#chat li.approval')).toHaveCount(0);

  await first.locator('#chat li.approval button.always').click();
  await expect(first.locator('#chat li.approval')).toContainText('always allowed for delete_note');
  await expect(first.locator('body')).toHaveAttribute('data-run', 'idle');
  await expect(first.locator('#chat li.assistant').last()).toContainText('This was the offline walkthrough');

  await expect(second.locator('#chat li.resume')).toHaveText('Interrupted run: it was answered in another tab.');
  await expect(second.locator('#chat li.approval')).toHaveCount(0);
  const results = await storedDeleteResults(second);
  expect(results).toHaveLength(1);
  expect(results[0]).toContain('"ok":true');
});
