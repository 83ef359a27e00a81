// The demo as a person sees it, at three window sizes: the approval card's buttons and the whole
// final answer inside the chat's visible rectangle (and the window), no sideways scrolling on a
// phone, a timeline whose labels do not overlap, and no axis before any run. At 1280x800 and on a
// phone, nothing covers the timeline; on a phone the assistant is the first screen, Approve comes
// into view with a margin, and the statistics table scrolls sideways with a cue.
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

/**
 * Points of the timeline panel's visible part where something else is on top (a sticky column, a
 * bar): sampled on a grid; each says what covers it. Empty when nothing overlaps the timeline.
 */
function timelineCovered(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const run = document.querySelector('#run')!;
    const box = run.getBoundingClientRect();
    const [top, bottom] = [Math.max(box.top, 0), Math.min(box.bottom, innerHeight)];
    const [left, right] = [Math.max(box.left, 0), Math.min(box.right, innerWidth)];
    const covered: string[] = [];
    if (bottom - top < 2 || right - left < 2) return covered; // not in view at this scroll
    for (let fy = 0.02; fy < 1; fy += 0.06)
      for (let fx = 0.02; fx < 1; fx += 0.06) {
        const [x, y] = [left + (right - left) * fx, top + (bottom - top) * fy];
        const hit = document.elementFromPoint(x, y);
        if (hit && !run.contains(hit)) covered.push(`(${Math.round(x)}, ${Math.round(y)}): ${hit.closest('[id]')?.id ?? hit.tagName}`);
      }
    return covered;
  });
}

/** The page's scroll positions worth looking at: the top, the timeline's top at the window's top, its bottom in view, the end. */
async function scrollPositions(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const run = document.querySelector('#run')!.getBoundingClientRect();
    const max = document.documentElement.scrollHeight - innerHeight;
    const at = (y: number) => Math.max(0, Math.min(max, Math.round(y + scrollY)));
    return [...new Set([0, at(run.top - 8), at(run.bottom - innerHeight + 8), max])];
  });
}

async function expectTimelineUncovered(page: Page, when: string): Promise<void> {
  for (const y of await scrollPositions(page)) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    expect(await timelineCovered(page), `${when}, scrolled to ${y}`).toEqual([]);
  }
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test(`${size.width}x${size.height}: nothing covers the run timeline, while the card waits and after`, async ({ page }) => {
    await page.setViewportSize(size);
    await openDemo(page);
    await page.locator('#walkthrough').click();
    await expect(page.locator('#timeline li.lane.call[data-name="delete_note"]')).toHaveAttribute('data-status', 'approval');
    await expectTimelineUncovered(page, 'waiting for approval');
    // The approval wait and the last rows are in the timeline, where a person scrolls to them.
    await page.locator('#timeline li.lane.call[data-name="delete_note"]').scrollIntoViewIfNeeded();
    expect(await timelineCovered(page)).toEqual([]);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.locator('#chat li.approval button.approve').click();
    await expect(page.locator('#timeline')).toHaveAttribute('data-status', 'finished');
    await expectTimelineUncovered(page, 'after the run');
  });
}

test('390x844: the assistant is the first screen, and the card brought into view keeps Approve a margin from the window edges', async ({ page }) => {
  const margin = 16;
  await page.setViewportSize({ width: 390, height: 844 });
  await openDemo(page);
  // Reachable with no scrolling: the box to ask in and the walkthrough's button.
  for (const id of ['#ask-input', '#send', '#walkthrough']) expectInside(await rectOf(page.locator(id)), { left: 0, top: 0, right: 390, bottom: 844 }, id);

  await page.locator('#walkthrough').click();
  const approve = page.locator('#chat li.approval button.approve');
  await expect(approve).toBeVisible();
  const view = { left: 0, top: margin, right: 390, bottom: 844 - margin };
  expectInside(await rectOf(approve), view, 'Approve');
  await page.locator('#chat li.approval button.deny').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
  // The person scrolled down to the timeline meanwhile: the card is brought back into view, with room around it.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await page.locator('#walkthrough').evaluate((button) => (button as HTMLButtonElement).click());
  await expect(approve).toBeVisible();
  expectInside(await rectOf(approve), view, 'Approve, brought into view from the page end');
});

test('390x844: the statistics table is wider than its panel: it scrolls sideways, with a cue that says so', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openDemo(page);
  await page.locator('#walkthrough').click();
  const scroller = page.locator('#stats .table-scroll');
  await expect(scroller.locator('tr', { hasText: 'visitors' })).toContainText('1435');
  const sizes = await scroller.evaluate((box) => ({ scroll: box.scrollWidth, client: box.clientWidth }));
  expect(sizes.scroll, 'the table is wider than its panel').toBeGreaterThan(sizes.client);
  await expect(page.locator('#stats .scroll-cue')).toBeVisible();
  await expect(page.locator('#stats .scroll-cue')).toContainText('sideways');
  expect(await overflowX(page), 'only the table scrolls, not the page').toBeLessThanOrEqual(0);
  // Scrolled to its end, the last column is in the scroller's view.
  await scroller.evaluate((box) => box.scrollTo({ left: box.scrollWidth }));
  expectInside(await rectOf(scroller.locator('th', { hasText: 'stddev' })), await rectOf(scroller), 'the last column');
  // Wide enough, no cue.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.locator('#stats .scroll-cue')).toBeHidden();
});
