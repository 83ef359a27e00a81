// The demo's walkthrough, recorded once against the e2e fake server (e2e/demo-run-file.spec.ts
// writes and checks the cassette), replayed here without any server: the demo's own page, tools,
// tool worker, runner worker and leaf, with replayEngine checking every request against the
// recorded one.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import indexHtml from '../../index.html?raw';
import '../../demo/style.css';
import { type Cassette, isAmbiError, replayEngine, type Run, type WorkerRunner } from '../../src/index.js';
import { makeRunner } from '../../demo/ui/make-runner.js';
import { mountNotes } from '../../demo/ui/notes-view.js';
import { loadSettings } from '../../demo/ui/settings.js';
import { WALKTHROUGH_PROMPT } from '../../demo/walkthrough.js';
import recording from './fixtures/walkthrough.cassette.json';

/** The cassette as JSON gives it (checked by replayEngine where it is replayed). */
const cassette = recording as unknown as Cassette;

let runner: WorkerRunner | undefined;

/** The demo page's body (its markup, not its script), as index.html has it. */
function demoPage(): void {
  const page = new DOMParser().parseFromString(indexHtml, 'text/html');
  for (const script of page.querySelectorAll('script')) script.remove();
  document.body.replaceChildren(...[...page.body.childNodes].map((node) => document.importNode(node, true)));
}

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
  });
}

/** Run the walkthrough on the replayed model, approving the delete as the person did. */
async function replayWalkthrough(recorded: Cassette): Promise<{ run: Run; outcome: unknown }> {
  runner = await makeRunner(loadSettings(), WALKTHROUGH_PROMPT, new AbortController().signal, { engine: replayEngine(recorded) });
  const run = runner.run(WALKTHROUGH_PROMPT, { conversation: `replay-${crypto.randomUUID()}` });
  for await (const event of run.events) if (event.type === 'approval_requested') run.approve(event.call.id);
  return { run, outcome: await run.result.catch((error: unknown) => error) };
}

describe('the demo walkthrough, replayed from its cassette', () => {
  // Fresh notes, the seeded three, as when the walkthrough was recorded (before any connection to them opens).
  beforeAll(() => Promise.all([deleteDatabase('ambi-demo-notes'), deleteDatabase('ambi-demo')]));
  beforeEach(async () => {
    demoPage();
    await mountNotes();
  });
  afterEach(() => {
    runner?.close();
    runner = undefined;
  });

  it('runs green: every request is the recorded one, and the run ends as it did', async () => {
    const recorded = cassette;
    const { outcome } = await replayWalkthrough(recorded);
    const last = recorded.interactions.at(-1)!.response;
    const answer = 'events' in last ? last.events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('') : '';
    expect(outcome).toMatchObject({ text: answer.trim(), usage: { totalTokens: 120, requests: 8 } });
    const results = (outcome as { toolResults: Array<{ name: string; ok: boolean }> }).toolResults;
    expect(results.map((r) => r.name)).toEqual(['add_note', 'fill_field', 'highlight', 'csv_stats', 'spawn_leaf', 'read_page', 'search_notes', 'delete_note']);
    expect(results.every((r) => r.ok)).toBe(true);
    // What the tools did is on the page, as in the recorded run.
    const notes = [...document.querySelectorAll('#note-list li strong')].map((title) => title.textContent);
    expect(notes).toContain('Lisbon packing list');
    expect(notes).not.toContain('Groceries');
    expect(document.querySelector<HTMLInputElement>('#editor [name="title"]')!.value).toBe('Lisbon packing list');
  });

  // After the run above, the notes are not the recorded ones: the packing list exists already, so
  // add_note gives another id, and the second request (the first to carry a result) differs there.
  it("rejects with replay_mismatch when the app's notes differ from when it was recorded", async () => {
    const { outcome } = await replayWalkthrough(cassette);
    expect(isAmbiError(outcome, 'replay_mismatch')).toBe(true);
    expect(outcome).toMatchObject({ request: 2, path: '/messages/3/content' });
    expect((outcome as Error).message).toContain('(message 4, tool)');
  });
});
