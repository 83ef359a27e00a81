import { expect, test } from '@playwright/test';
import { openDemo } from './demo-helpers.js';

test('the offline walkthrough shows every capability with no model at all', async ({ page }) => {
  await openDemo(page);
  await expect(page.locator('#mode-label')).toHaveText('Offline walkthrough (no model)');
  await page.locator('#walkthrough').click();

  // The walkthrough stops for the delete approval: the person approves.
  const approval = page.locator('#chat li.approval');
  await expect(approval).toContainText('Allow delete_note {"id":"n-groceries"}?');
  await approval.locator('button.approve').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');

  await expect(page.locator('#chat li.assistant').last()).toContainText('This was the offline walkthrough: no model was used.');
  await expect(page.locator('#note-list li', { hasText: 'Lisbon packing list' })).toHaveCount(1);
  await expect(page.locator('[data-note-id="n-groceries"]')).toHaveCount(0);
  await expect(page.locator('#editor input[name="title"]')).toHaveValue('Lisbon packing list');
  await expect(page.locator('#editor')).toHaveClass(/highlighted/);
  await expect(page.locator('#leaves li')).toHaveText([
    'Summarise the travel notes in one sentence. [done]: Travel: Lisbon, with the tram 28 tour and pastries in Belém.',
  ]);
  const timeline = page.locator('#timeline');
  for (const line of [
    'read_page finished',
    'search_notes finished',
    'add_note finished',
    'fill_field finished',
    'csv_stats finished',
    'spawn_leaf finished',
    'delete_note finished',
    'run finished',
  ]) {
    await expect(timeline).toContainText(line);
  }
  // The delete waited for the approval; the leaf's search sits under its spawn_leaf call.
  await expect(timeline.locator('li.lane.call[data-name="delete_note"]')).toHaveAttribute('data-approved', 'true');
  await expect(timeline.locator('li.lane.call[data-name="delete_note"] .seg[data-kind="approval"]')).toHaveCount(1);
  await expect(timeline.locator('li.lane.call[data-depth="1"]')).toContainText('search_notes finished');
});

test('two tabs on one conversation: the second is told the conversation is busy', async ({ context }) => {
  const first = await context.newPage();
  await openDemo(first);
  const second = await context.newPage();
  await second.goto('/');
  await expect(second.locator('body')).toHaveAttribute('data-ready', 'true');
  // Same origin, same conversation id (localStorage): the walkthrough holds the Web Lock while it waits for approval.
  await first.locator('#walkthrough').click();
  await expect(first.locator('#chat li.approval')).toHaveCount(1);
  await second.locator('#ask-input').fill('hello from the second tab');
  await second.locator('#send').click();
  await expect(second.locator('#chat li.error').last()).toHaveText('This conversation is running in another tab.');
  await first.locator('#chat li.approval button.deny').click();
  await expect(first.locator('body')).toHaveAttribute('data-run', 'idle');
});
