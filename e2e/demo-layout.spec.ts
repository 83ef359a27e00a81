// The demo as a person sees it, at three window sizes: the approval card's buttons and the whole
// final answer inside the chat's visible rectangle (and the window), no sideways scrolling on a
// phone, a timeline whose labels do not overlap, and no axis before any run.
import { expect, type Locator, type Page, test } from '@playwright/test';
import { openDemo } from './demo-helpers.js';

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 600 },
  { width: 390, height: 844 },
];

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** An element's rectangle in the window, as the browser lays it out now. */
const rectOf = (locator: Locator): Promise<Rect> =>
  locator.evaluate((element) => {
    const { left, top, right, bottom } = element.getBoundingClientRect();
    return { left, top, right, bottom };
  });

/** What of the chat a person sees: its box, cut to the window. */
async function chatVisibleRect(page: Page): Promise<Rect> {
  const chat = await rectOf(page.locator('#chat'));
  const { width, height } = page.viewportSize()!;
  return { left: Math.max(chat.left, 0), top: Math.max(chat.top, 0), right: Math.min(chat.right, width), bottom: Math.min(chat.bottom, height) };
}

function expectInside(inner: Rect, outer: Rect, what: string): void {
  const slack = 0.5; // sub-pixel layout
  expect(inner.top, `${what}: top`).toBeGreaterThanOrEqual(outer.top - slack);
  expect(inner.bottom, `${what}: bottom`).toBeLessThanOrEqual(outer.bottom + slack);
  expect(inner.left, `${what}: left`).toBeGreaterThanOrEqual(outer.left - slack);
  expect(inner.right, `${what}: right`).toBeLessThanOrEqual(outer.right + slack);
}

const overflowX = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

for (const size of SIZES) {
  test(`${size.width}x${size.height}: Approve and the whole final answer are inside the chat's visible rectangle`, async ({ page }) => {
    await page.setViewportSize(size);
    await openDemo(page);
    await page.locator('#walkthrough').click();
    const card = page.locator('#chat li.approval');
    const approve = card.locator('button.approve');
    await expect(approve).toBeVisible();
    // Nobody scrolls: the page brings the buttons where the person looks.
    for (const button of [approve, card.locator('button.always'), card.locator('button.deny')])
      expectInside(await rectOf(button), await chatVisibleRect(page), `${await button.textContent()} button`);

    await approve.click();
    await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
    const answer = page.locator('#chat li.assistant').last();
    await expect(answer).toContainText('This was the offline walkthrough');
    await answer.evaluate((element) => element.closest('ol')!.scrollIntoView({ block: 'nearest' })); // the chat itself in the window (a phone's page is long)
    expectInside(await rectOf(answer), await rectOf(page.locator('#chat')), 'the final answer');
    expect(await overflowX(page)).toBeLessThanOrEqual(0);
  });
}

test('a phone (390x844): no sideways scrolling, and the timeline labels do not overlap', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openDemo(page);
  expect(await overflowX(page)).toBeLessThanOrEqual(0);
  await page.locator('#walkthrough').click();
  await page.locator('#chat li.approval button.approve').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
  expect(await overflowX(page)).toBeLessThanOrEqual(0);

  const ticks = await page.locator('#timeline .axis .ticks span').evaluateAll((spans) =>
    spans
      .map((span) => span.getBoundingClientRect())
      .filter((box) => box.width > 0)
      .map(({ left, right }) => ({ left, right })),
  );
  expect(ticks.length).toBeGreaterThanOrEqual(2);
  for (let i = 1; i < ticks.length; i++) expect(ticks[i]!.left, `tick ${i} starts after tick ${i - 1} ends`).toBeGreaterThanOrEqual(ticks[i - 1]!.right);
  // Every lane's label stays in its column, left of the track.
  const lanes = await page.locator('#timeline li.lane').evaluateAll((rows) =>
    rows.map((row) => ({
      label: row.querySelector('.lane-label')!.getBoundingClientRect().right,
      track: row.querySelector('.track')!.getBoundingClientRect().left,
    })),
  );
  expect(lanes.length).toBeGreaterThan(5);
  for (const lane of lanes) expect(lane.label).toBeLessThanOrEqual(lane.track + 0.5);
});

test('before any run the timeline shows no time axis', async ({ page }) => {
  await openDemo(page);
  await expect(page.locator('#timeline .timeline-status')).toHaveText('No run yet.');
  await expect(page.locator('#timeline .axis')).toBeHidden();
  await expect(page.locator('#timeline')).not.toContainText('0 ms');
});
