// The demo's walkthrough against the fake OpenAI-compatible server: the timeline shows the run's
// tokens, exports the run (events and cassette) as a file, and opens that file in another page.
// The exported cassette is the one committed in tests/browser/fixtures (the walkthrough's replay
// test reads it): recording the same walkthrough again writes the same JSON value. To record it anew,
// run this spec with RECORD_WALKTHROUGH_CASSETTE=1.
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { walkthroughReplies } from '../demo/walkthrough.js';
import { callLaneNames, openDemo, script, useFakeModel } from './demo-helpers.js';
import { FAKE_ORIGIN } from './ports.js';

const FIXTURE = 'tests/browser/fixtures/walkthrough.cassette.json';

test.use({ viewport: { width: 1280, height: 900 } });

/** The walkthrough's replies, as the fake server takes them. */
const fakeWalkthrough = () =>
  walkthroughReplies().map((reply) => (typeof reply === 'string' ? { text: reply } : { text: reply.text ?? '', toolCalls: reply.toolCalls ?? [] }));

async function walkthrough(page: Page): Promise<void> {
  await openDemo(page);
  await useFakeModel(page);
  await script(page, fakeWalkthrough());
  await page.locator('#walkthrough').click();
  await page.locator('#chat li.approval button.approve').click();
  await expect(page.locator('body')).toHaveAttribute('data-run', 'idle', { timeout: 30_000 });
  await expect(page.locator('#timeline')).toHaveAttribute('data-status', 'finished');
}

test('the walkthrough’s tokens, its export (events and cassette), and the file opened in another page', async ({ page, context }) => {
  await walkthrough(page);
  // The fake server reports 15 tokens a request: 8 requests, the leaf's two included.
  await expect(page.locator('#timeline .timeline-status')).toContainText('120 tokens in 8 requests');

  const downloading = page.waitForEvent('download');
  await page.locator('#timeline .export-run').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^ambi-run-.*\.json$/);
  const path = await download.path();
  const text = readFileSync(path, 'utf8');
  const file = JSON.parse(text);
  expect(file).toMatchObject({ kind: 'ambi-web-run', version: 1 });
  expect(file.events[0]).toMatchObject({ at: 0, event: { type: 'run_started' } });
  expect(file.cassette).toMatchObject({ kind: 'ambi-web-cassette', engine: { provider: 'openai', model: 'fake-model', nativeTools: true } });
  expect(file.cassette.interactions).toHaveLength(8);
  // Neither the key nor the server's address is in the file.
  expect(text).not.toContain('sk-test-secret');
  expect(text).not.toContain(new URL(FAKE_ORIGIN).host);

  if (process.env.RECORD_WALKTHROUGH_CASSETTE) writeFileSync(FIXTURE, `${JSON.stringify(file.cassette, null, 2)}\n`);
  // Stable under re-recording: this recording is the committed one, the same JSON (keys in the same order).
  expect(JSON.stringify(file.cassette)).toBe(JSON.stringify(JSON.parse(readFileSync(FIXTURE, 'utf8'))));

  // Opened in a fresh page: the same lanes, drawn as the run ended, said to come from the file.
  const other = await context.newPage();
  await openDemo(other);
  await other
    .locator('#timeline .open-run input')
    .setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(other.locator('#timeline')).toHaveAttribute('data-opened', 'true');
  await expect(other.locator('#timeline')).toHaveAttribute('data-status', 'finished');
  await expect(other.locator('#timeline .timeline-status')).toContainText(
    `Opened ${download.suggestedFilename()} (cassette: 8 model requests): run finished · 9 calls`,
  );
  await expect(other.locator('#timeline .timeline-status')).toContainText('120 tokens in 8 requests');
  expect(await callLaneNames(other)).toEqual(await callLaneNames(page));
  await expect(other.locator('#timeline .export-run')).toBeDisabled();
});

test('a file that is not a run is refused with a reason, and the timeline stays as it was', async ({ page }) => {
  await openDemo(page);
  const input = page.locator('#timeline .open-run input');
  await input.setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"kind":"something else"}') });
  await expect(page.locator('#timeline .timeline-problem')).toHaveText('notes.json: This is not a run file: its "kind" is not "ambi-web-run"');
  await input.setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{ not json') });
  await expect(page.locator('#timeline .timeline-problem')).toHaveText('broken.json: This is not a run file: it is not JSON');
  await expect(page.locator('#timeline .timeline-status')).toHaveText('No run yet.');
  // Model text in a file is text, never markup.
  const hostile = {
    kind: 'ambi-web-run',
    version: 1,
    events: [
      { at: 0, event: { type: 'run_started', runId: 'r', input: 'x' } },
      { at: 5, event: { type: 'tool_call', call: { id: 'c', name: '<img src=x onerror=alert(1)>', arguments: {} } } },
    ],
  };
  await input.setInputFiles({ name: 'hostile.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(hostile)) });
  await expect(page.locator('#timeline li.lane.call')).toHaveCount(1);
  await expect(page.locator('#timeline img')).toHaveCount(0);
});
