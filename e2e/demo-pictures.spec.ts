// The docs' pictures, made from the demo as it is: docs/demo.png (README's first picture: the
// offline walkthrough waiting for its approval, the whole page at 1280 wide) and docs/timeline.png
// (docs/demo.md: the timeline after the walkthrough, the leaf's call opened). Taken on every run
// into the test's output and checked there; copied over docs/ only when asked:
// `npm run docs:pictures` (UPDATE_DEMO_SCREENSHOT=1).
import { expect, test } from '@playwright/test';
import { copyFileSync, readFileSync } from 'node:fs';
import { openDemo } from './demo-helpers.js';

test.use({ viewport: { width: 1280, height: 800 } });

/** A PNG's width and height, from its header. */
function pngSize(file: string): { width: number; height: number } {
  const png = readFileSync(file);
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

const update = (taken: string, docs: string) => {
  if (process.env.UPDATE_DEMO_SCREENSHOT) copyFileSync(taken, docs);
};

test('docs/demo.png: the walkthrough waiting for its approval, notes, assistant and timeline side by side', async ({ page }, info) => {
  await openDemo(page);
  await page.locator('#walkthrough').click();
  const card = page.locator('#chat li.approval');
  await expect(card.locator('button.approve')).toBeVisible();
  // What the picture shows: the notes the assistant added, the statistics, the leaf, the waiting row.
  await expect(page.locator('#note-list li', { hasText: 'Lisbon packing list' })).toHaveCount(1);
  await expect(page.locator('#stats tr', { hasText: 'visitors' })).toContainText('1435');
  await expect(page.locator('#leaves li')).toHaveCount(1);
  await expect(page.locator('#timeline li.lane.call[data-name="delete_note"]')).toHaveAttribute('data-status', 'approval');
  // The assistant and the timeline share no pixel.
  const [assistant, run] = await Promise.all([page.locator('#assistant').boundingBox(), page.locator('#run').boundingBox()]);
  expect(assistant!.x >= run!.x + run!.width || assistant!.y >= run!.y + run!.height || run!.y >= assistant!.y + assistant!.height).toBe(true);

  const taken = info.outputPath('demo.png');
  await page.screenshot({ path: taken, fullPage: true });
  const size = pngSize(taken);
  expect(size.width).toBe(1280);
  expect(size.height).toBeGreaterThanOrEqual(800);
  update(taken, 'docs/demo.png');
});

test('docs/timeline.png: the timeline after the walkthrough, with the leaf call opened', async ({ page }, info) => {
  await openDemo(page);
  await page.locator('#walkthrough').click();
  await page.locator('#chat li.approval button.approve').click();
  await expect(page.locator('#timeline')).toHaveAttribute('data-status', 'finished');
  await page.locator('#timeline li.lane.call[data-name="spawn_leaf"] .track').click();
  await expect(page.locator('#timeline .timeline-detail')).toContainText('Summarise the travel notes');

  const taken = info.outputPath('timeline.png');
  await page.locator('#run').screenshot({ path: taken });
  const box = await page.locator('#run').boundingBox();
  const size = pngSize(taken);
  expect(size.width).toBe(Math.round(box!.width));
  update(taken, 'docs/timeline.png');
});
