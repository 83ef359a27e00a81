// Driving the demo from Playwright: settings, the fake model's script, and reading the page.
import { expect, type Page } from '@playwright/test';
import { FAKE_ORIGIN } from './ports.js';

export const FAKE_BASE_URL = `${FAKE_ORIGIN}/v1`;

export interface FakeReply {
  text?: string;
  toolCalls?: Array<{ id?: string; name: string; arguments: unknown }>;
  chunkDelayMs?: number;
  delayMs?: number;
  status?: number;
  error?: string;
}

/** Queue the fake model's next replies. */
export async function script(page: Page, replies: FakeReply[]): Promise<void> {
  const res = await page.request.post(`${FAKE_ORIGIN}/__script`, { data: { replies } });
  expect(res.ok()).toBe(true);
}

/** The chat requests the fake model received since the last script. */
export async function modelRequests(page: Page): Promise<Array<{ messages: Array<{ role: string; content: string | null }> }>> {
  return (await page.request.get(`${FAKE_ORIGIN}/__requests`)).json();
}

/**
 * Open the demo and wait until it is ready. Every test runs in a fresh browser context,
 * so its storage and IndexedDB start empty (deleting databases under a live page raced
 * with the app's own seeding).
 */
export async function openDemo(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#note-list li')).toHaveCount(3);
}

/** Point the demo at the fake OpenAI-compatible server through the settings dialog. */
export async function useFakeModel(page: Page): Promise<void> {
  await page.locator('#open-settings').click();
  await page.locator('#settings input[name="mode"][value="openai"]').check();
  await page.locator('#settings input[name="baseURL"]').fill(FAKE_BASE_URL);
  await page.locator('#settings input[name="model"]').fill('fake-model');
  await page.locator('#settings input[name="apiKey"]').fill('sk-test-secret');
  await page.locator('#settings button[value="save"]').click();
  await expect(page.locator('#mode-label')).toHaveAttribute('data-mode', 'openai');
}

/** Send a message and wait for the run to end. */
export async function ask(page: Page, text: string, wait = true): Promise<void> {
  const input = page.locator('#ask-input');
  await input.fill(text);
  await expect(input).toHaveValue(text);
  await page.locator('#send').click();
  // The question is shown and the run marked running in the same task; a short run can end
  // before 'running' is ever seen, so from here on 'idle' means this run has ended.
  await expect(page.locator('#chat li.user').last()).toHaveText(text);
  if (wait) await expect(page.locator('body')).toHaveAttribute('data-run', 'idle', { timeout: 30_000 });
}

/** Everything the demo persisted: localStorage and every IndexedDB object store, as text. */
export async function persistedText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const dump: string[] = [JSON.stringify({ ...localStorage })];
    for (const info of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(info.name!);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      for (const name of db.objectStoreNames) {
        const all = await new Promise<unknown[]>((resolve) => {
          const r = db.transaction(name).objectStore(name).getAll();
          r.onsuccess = () => resolve(r.result);
        });
        dump.push(JSON.stringify(all));
      }
      db.close();
    }
    return dump.join('\n');
  });
}

/** The timeline's call lanes in their order, each as `name@depth` (a leaf's or a program's calls one deeper). */
export function callLaneNames(page: Page): Promise<string[]> {
  return page
    .locator('#timeline li.lane.call')
    .evaluateAll((lanes) => lanes.map((lane) => `${(lane as HTMLElement).dataset.name}@${(lane as HTMLElement).dataset.depth}`));
}

/** The offline walkthrough's calls as the timeline lists them: the leaf's search under its spawn_leaf call, the delete last. */
export const WALKTHROUGH_CALL_LANES = [
  'add_note@0',
  'fill_field@0',
  'highlight@0',
  'csv_stats@0',
  'spawn_leaf@0',
  'search_notes@1',
  'read_page@0',
  'search_notes@0',
  'delete_note@0',
];
