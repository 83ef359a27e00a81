// The demo's run timeline: one lane per tool call and per model turn on a shared time axis,
// drawn live, with a leaf's calls nested under its spawn_leaf call; a click shows a call's
// arguments and result as text. (The docs' pictures of it: e2e/demo-pictures.spec.ts.)
import { expect, type Locator, type Page, test } from '@playwright/test';
import { ask, callLaneNames, openDemo, script, useFakeModel, WALKTHROUGH_CALL_LANES } from './demo-helpers.js';

test.use({ viewport: { width: 1280, height: 900 } });

/** A lane's bars of one kind, as [start, end] on the shared axis (page receipt times). */
async function spans(lane: Locator, kind: string): Promise<Array<[number, number]>> {
  return lane
    .locator(`.seg[data-kind="${kind}"]`)
    .evaluateAll((bars) => bars.map((bar) => [Number((bar as HTMLElement).dataset.start), Number((bar as HTMLElement).dataset.end)]));
}

/** A lane's whole extent, from the model's proposal to the call's end. */
async function extent(lane: Locator): Promise<[number, number]> {
  return [Number(await lane.getAttribute('data-start')), Number(await lane.getAttribute('data-end'))];
}

const callLanes = (page: Page) => page.locator('#timeline li.lane.call');
const lane = (page: Page, name: string) => page.locator(`#timeline li.lane.call[data-name="${name}"]`);

test('the walkthrough as a timeline: a lane per call, parallel calls overlap, the approval wait marked, the leaf nested', async ({ page }) => {
  await openDemo(page);
  await page.locator('#walkthrough').click();

  // Live: while the run waits for the person, the delete's lane says so and its wait is still open.
  const remove = lane(page, 'delete_note');
  await expect(remove).toHaveAttribute('data-status', 'approval');
  await expect(remove.locator('.seg[data-kind="approval"].open')).toHaveCount(1);
  await expect(page.locator('#timeline')).toHaveAttribute('data-status', 'running');
  // Edits to the notes show as they happen, before the run ends; so do the statistics.
  await expect(page.locator('#note-list li', { hasText: 'Lisbon packing list' })).toHaveCount(1);
  await expect(page.locator('#stats tr', { hasText: 'visitors' })).toContainText('1435');
  await page.locator('#chat li.approval button.approve').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
  await expect(page.locator('#timeline')).toHaveAttribute('data-status', 'finished');

  // A lane per call, the leaf's search nested under its spawn_leaf call.
  await expect(callLanes(page)).toHaveCount(9);
  expect(await callLaneNames(page)).toEqual(WALKTHROUGH_CALL_LANES);
  const spawn = lane(page, 'spawn_leaf');
  const leafSearch = page.locator('#timeline li.lane.call[data-depth="1"]');
  expect(await leafSearch.getAttribute('data-parent-call-id')).toBe(await spawn.getAttribute('data-lane-id'));
  await expect(leafSearch.locator('.lane-label')).toContainText('search_notes finished');
  // The leaf's own model turns sit under the spawn_leaf call too.
  await expect(page.locator('#timeline li.lane.model[data-depth="1"]')).toHaveCount(2);
  // Model turns between the calls: the top run's six (add, stats, leaf, read, delete, answer).
  await expect(page.locator('#timeline li.lane.model[data-depth="0"]')).toHaveCount(6);

  // The reading reply's two calls were in flight at once (the second was proposed before the
  // first finished): their lanes overlap on the axis.
  const [readPage, search] = [
    await extent(lane(page, 'read_page')),
    await extent(page.locator('#timeline li.lane.call[data-name="search_notes"][data-depth="0"]')),
  ];
  expect(search[0] <= readPage[1] && readPage[0] <= search[1]).toBe(true);
  // The leaf ran inside its spawn_leaf call's bar; csv_stats came after add_note (another turn).
  const [leafBar] = await spans(spawn, 'attempt');
  const [leafCall] = await spans(leafSearch, 'attempt');
  expect(leafBar![0] <= leafCall![0] && leafCall![1] <= leafBar![1]).toBe(true);
  const [addNote] = await spans(lane(page, 'add_note'), 'attempt');
  const [stats] = await spans(lane(page, 'csv_stats'), 'attempt');
  expect(stats![0]).toBeGreaterThanOrEqual(addNote![1]);

  // The approval wait is drawn as its own segment, before the delete ran.
  await expect(remove).toHaveAttribute('data-approved', 'true');
  await expect(remove).toHaveAttribute('data-status', 'done');
  const [wait] = await spans(remove, 'approval');
  const [ran] = await spans(remove, 'attempt');
  expect(wait![1]).toBeLessThanOrEqual(ran![0]);
  await expect(remove.locator('.seg[data-kind="approval"].open')).toHaveCount(0);

  // Results where the person looks: the statistics fill the data panel.
  const statsTable = page.locator('#stats');
  await expect(statsTable).toBeVisible();
  await expect(statsTable.locator('tr', { hasText: 'visitors' })).toContainText('1435');
  await expect(statsTable).toContainText('computed in the worker');

  // A click on a bar shows the call's arguments and result, as text.
  await lane(page, 'csv_stats').locator('.track').click();
  const detail = page.locator('#timeline .timeline-detail');
  await expect(detail).toBeVisible();
  await expect(detail.locator('.detail-arguments')).toContainText('month,visitors,signups');
  await expect(detail.locator('.detail-result')).toContainText('"computedIn": "worker"');
  await lane(page, 'delete_note').locator('.lane-label').click();
  await expect(detail.locator('.detail-arguments')).toContainText('"id": "n-groceries"');
  await expect(detail.locator('h4')).toContainText('delete_note');
});

test('fifty calls stay readable: one row each, none overlapping, every bar visible, a failure marked', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
  const replies = Array.from({ length: 5 }, (_, turn) => ({
    toolCalls: Array.from({ length: 10 }, (_, i): { name: string; arguments: object } => ({ name: 'search_notes', arguments: { query: `q${turn * 10 + i}` } })),
  }));
  // One call of the first reply fails: its lane is marked.
  replies[0]!.toolCalls[9] = { name: 'read_page', arguments: { selector: '#settings' } };
  await script(page, [...replies, { text: 'Searched fifty times.' }]);
  await ask(page, 'Search a lot');
  await expect(page.locator('#chat li.assistant').last()).toHaveText('Searched fifty times.');

  await expect(callLanes(page)).toHaveCount(50);
  await expect(page.locator('#timeline .timeline-status')).toContainText('run finished · 50 calls');
  const failed = lane(page, 'read_page');
  await expect(failed).toHaveAttribute('data-status', 'failed');
  await expect(failed.locator('.lane-label')).toContainText('failed: tool_error');
  await expect(failed.locator('.mark[data-kind="failure"]')).toHaveCount(1);

  // Rows of a readable height, one below the other; every bar at least a few pixels wide.
  const rows = await callLanes(page).evaluateAll((lanes) => lanes.map((l) => l.getBoundingClientRect()).map((r) => ({ top: r.top, height: r.height })));
  for (const [i, row] of rows.entries()) {
    expect(row.height).toBeGreaterThanOrEqual(16);
    if (i > 0) expect(row.top).toBeGreaterThanOrEqual(rows[i - 1]!.top + rows[i - 1]!.height - 1);
  }
  const widths = await page.locator('#timeline li.lane.call .seg[data-kind="attempt"]').evaluateAll((bars) => bars.map((b) => b.getBoundingClientRect().width));
  expect(widths).toHaveLength(50);
  expect(Math.min(...widths)).toBeGreaterThanOrEqual(2);
  // The last lane can be reached and read, its label whole.
  const last = callLanes(page).last();
  await last.scrollIntoViewIfNeeded();
  await expect(last).toBeInViewport();
  await expect(last.locator('.lane-label')).toContainText('search_notes finished');
  await last.locator('.track').click();
  await expect(page.locator('#timeline .detail-arguments')).toContainText('"query": "q49"');
});
