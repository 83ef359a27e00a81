import { expect, type Page, test } from '@playwright/test';
import { ask, callLaneNames, openDemo, script, useFakeModel, WALKTHROUGH_CALL_LANES } from './demo-helpers.js';

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

test('a resumed card: "checking…" at once, a question waits for the card, and Stop ends the resumed run', async ({ page }) => {
  await openDemo(page);
  await walkUntilTheCard(page);
  // Every text the resume line shows, from its first (it may last only a moment).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { resumeTexts: string[] }).resumeTexts = seen;
    new MutationObserver(() => {
      const text = document.querySelector('#chat li.resume')?.textContent;
      if (text && seen.at(-1) !== text) seen.push(text);
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });

  await page.reload();
  const card = page.locator('#chat li.approval');
  await expect(card).toContainText(DELETE_CARD);
  const texts = await page.evaluate(() => (window as unknown as { resumeTexts: string[] }).resumeTexts);
  expect(texts[0]).toBe('Checking for an interrupted run…');
  await expect(page.locator('body')).toHaveAttribute('data-run', 'running');

  // Sending now is not "running in another tab": the card in this tab comes first.
  await page.locator('#ask-input').fill('What is on my list?');
  await page.locator('#send').click();
  await expect(page.locator('#chat li.notice').last()).toHaveText('Answer the card above first (or Stop the run).');
  await expect(page.locator('#ask-input')).toHaveValue('What is on my list?');
  await expect(page.locator('#chat li.user', { hasText: 'What is on my list?' })).toHaveCount(0);

  await page.locator('#stop').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
  await expect(card).toHaveText(`${DELETE_CARD} Not answered: the run ended.`);
  await expect(page.locator('#chat li.resume')).toHaveText('Interrupted run: stopped.');
  await expect(page.locator('[data-note-id="n-groceries"]')).toHaveCount(1); // the delete never ran

  // The question can go now.
  await page.locator('#send').click();
  await expect(page.locator('#chat li.user').last()).toHaveText('What is on my list?');
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
});

test('a decision left by a reload while its call ran never approves a later call that reuses its id', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
  // The model numbers its calls per reply (call_0, call_1, …), as many do. The leaf's own request
  // hangs, so the batch is still running when the page reloads: the delete's decision stays behind.
  await script(page, [
    {
      toolCalls: [
        { id: 'call_0', name: 'delete_note', arguments: { id: 'n-groceries' } },
        { id: 'call_1', name: 'spawn_leaf', arguments: { task: 'Summarise the notes' } },
      ],
    },
    { delayMs: 60_000, text: 'too late' },
  ]);
  await ask(page, 'Tidy up', false);
  await page.locator('#chat li.approval button.approve').click();
  await expect(page.locator('[data-note-id="n-groceries"]')).toHaveCount(0);
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');

  // A new question; the model deletes another note, and calls it call_0 again.
  await script(page, [{ toolCalls: [{ id: 'call_0', name: 'delete_note', arguments: { id: 'n-lisbon' } }] }, { text: 'Kept it.' }]);
  await ask(page, 'Delete the Lisbon note', false);
  const card = page.locator('#chat li.approval').last();
  await expect(card).toContainText('delete_note');
  await expect(card).toContainText('n-lisbon');
  await expect(page.locator('[data-note-id="n-lisbon"]')).toHaveCount(1); // not deleted on the old decision
  await card.locator('button.deny').click();
  await expect(page.locator('#chat li.assistant').last()).toHaveText('Kept it.');
  await expect(page.locator('[data-note-id="n-lisbon"]')).toHaveCount(1);
});

test('reload mid-approval: the timeline keeps the rows from before the reload, and the resumed run goes on in them', async ({ page }) => {
  await openDemo(page);
  await walkUntilTheCard(page);
  await expect(page.locator('#timeline li.lane.call[data-name="delete_note"]')).toHaveAttribute('data-status', 'approval');
  const before = await callLaneNames(page);
  expect(before).toEqual(WALKTHROUGH_CALL_LANES);
  const modelTurns = await page.locator('#timeline li.lane.model').count();

  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#chat li.approval')).toContainText(DELETE_CARD);
  // The rows from before the reload, the delete still waiting for the person.
  expect(await callLaneNames(page)).toEqual(before);
  await expect(page.locator('#timeline li.lane.call[data-name="add_note"]')).toHaveAttribute('data-status', 'done');
  await expect(page.locator('#timeline li.lane.call[data-name="delete_note"]')).toHaveAttribute('data-status', 'approval');
  await expect(page.locator('#timeline')).toHaveAttribute('data-status', 'running');

  await page.locator('#chat li.approval button.approve').click();
  await expect(page.locator('#timeline')).toHaveAttribute('data-status', 'finished');
  // One lane per call still: the delete ran in its own row, approved, after its wait (before and after the reload).
  expect(await callLaneNames(page)).toEqual(before);
  const remove = page.locator('#timeline li.lane.call[data-name="delete_note"]');
  await expect(remove).toHaveAttribute('data-status', 'done');
  await expect(remove).toHaveAttribute('data-approved', 'true');
  const waits = await remove.locator('.seg[data-kind="approval"]').evaluateAll((bars) => bars.map((bar) => Number((bar as HTMLElement).dataset.end)));
  const [ran] = await remove.locator('.seg[data-kind="attempt"]').evaluateAll((bars) => bars.map((bar) => Number((bar as HTMLElement).dataset.start)));
  expect(waits.length).toBeGreaterThanOrEqual(1);
  expect(Math.max(...waits)).toBeLessThanOrEqual(ran!);
  // The resumed run's answer is a model turn of its own, after the rows kept.
  expect(await page.locator('#timeline li.lane.model').count()).toBeGreaterThan(modelTurns);
  await expect(page.locator('#timeline li.lane.call[data-name="add_note"]')).toHaveAttribute('data-status', 'done');
});

test('a timeline kept for another conversation, or unreadable, is not drawn', async ({ page }) => {
  await openDemo(page);
  await walkUntilTheCard(page);
  // Tamper with what the page keeps as it goes away: another conversation's rows, then garbage.
  await page.evaluate(() =>
    addEventListener('pagehide', () => {
      const kept = JSON.parse(sessionStorage.getItem('ambi-demo:timeline') ?? '{}');
      sessionStorage.setItem('ambi-demo:timeline', JSON.stringify({ ...kept, conversation: 'conv-someone-else' }));
    }),
  );
  await page.reload();
  await expect(page.locator('#chat li.approval')).toContainText(DELETE_CARD);
  // Only the resumed run's own rows: the delete asked again.
  await expect(page.locator('#timeline li.lane.call')).toHaveCount(1);
  await page.evaluate(() => addEventListener('pagehide', () => sessionStorage.setItem('ambi-demo:timeline', '{"conversation": 1, "events": "x"')));
  await page.reload();
  await expect(page.locator('#chat li.approval')).toContainText(DELETE_CARD);
  await expect(page.locator('#timeline li.lane.call')).toHaveCount(1);
});
