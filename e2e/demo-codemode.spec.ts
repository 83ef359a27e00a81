// Code Mode in the demo (Settings → "Code Mode"): the model is offered run_code alone and writes one
// program; the program's calls run as the demo's calls do (a share after reading notes asks the
// person first), and the timeline draws them under the run_code call.
import { expect, type Page, test } from '@playwright/test';
import { ask, callLaneNames, modelRequests, openDemo, script, useFakeModel } from './demo-helpers.js';

async function codeMode(page: Page): Promise<void> {
  await page.locator('#open-settings').click();
  await page.locator('#settings input[name="codeMode"]').check();
  await page.locator('#settings button[value="save"]').click();
}

const PROGRAM =
  "const found = await tools.search_notes({ query: 'Lisbon' });\nconsole.log('found', found.length);\nreturn await tools.share_note({ id: found[0].id, to: 'friend@home.example' });";

test('one program: its calls under the run_code call in the timeline, the share approved on its card, the outbox holds it', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
  await codeMode(page);
  await script(page, [{ toolCalls: [{ id: 'prog', name: 'run_code', arguments: { code: PROGRAM } }] }, { text: 'Shared your Lisbon note.' }]);
  await ask(page, 'Share my Lisbon note with friend@home.example', false);

  // The program read notes (untrusted): its share waits for the person.
  const card = page.locator('#chat li.approval');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('share_note');
  await card.locator('button.approve').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle');
  await expect(page.locator('#outbox li')).toHaveText(['Trip to Lisbon → friend@home.example']);

  const lanes = page.locator('#timeline li.lane.call');
  await expect(lanes).toHaveCount(3);
  expect(await callLaneNames(page)).toEqual(['run_code@0', 'search_notes@1', 'share_note@1']);
  for (const nested of await page.locator('#timeline li.lane.call[data-depth="1"]').all())
    expect(await nested.getAttribute('data-parent-call-id')).toBe('prog');
  // One model turn wrote the program, one answered: no turn per call.
  await expect(page.locator('#timeline li.lane.model')).toHaveCount(2);

  const requests = (await modelRequests(page)) as unknown as Array<{ tools?: Array<{ function: { name: string; description: string } }> }>;
  const offered = requests[0]!.tools ?? [];
  expect(offered.map((t) => t.function.name)).toEqual(['run_code']);
  expect(offered[0]!.function.description).toContain('share_note(args: {');
});

test('reload while a program’s call waits for the person: the card comes back, the program runs again, the share happens once', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
  await codeMode(page);
  await script(page, [{ toolCalls: [{ id: 'prog', name: 'run_code', arguments: { code: PROGRAM } }] }, { text: 'Shared your Lisbon note.' }]);
  await ask(page, 'Share my Lisbon note with friend@home.example', false);
  await expect(page.locator('#chat li.approval')).toContainText('share_note');

  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#chat li.resume')).toContainText('share_note waits for your approval');
  const card = page.locator('#chat li.approval');
  await expect(card).toContainText('share_note');
  await expect(page.locator('#outbox li')).toHaveCount(0);
  await card.locator('button.approve').click();
  await expect(page.locator('#chat li.assistant').last()).toHaveText('Shared your Lisbon note.');
  await expect(page.locator('#outbox li')).toHaveText(['Trip to Lisbon → friend@home.example']);
});
