// The demo with images (issue 47): a person attaches an image to a message, and the model asks for
// `screenshot_note`, which draws the note being edited on a canvas; both reach the model server's
// raw request as image_url parts (the fake OpenAI-compatible server records what it read).
import { expect, test } from '@playwright/test';
import { ask, modelRequests, openDemo, script, useFakeModel } from './demo-helpers.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

type Content = string | null | Array<{ type: string; text?: string; image_url?: { url: string } }>;
const contentOf = (message: unknown) => (message as { content: Content }).content;

test('an image attached to a message reaches the model as an image_url part, with the words', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
  await script(page, [{ text: 'A single pixel.' }]);
  await page.locator('#ask-image').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.locator('.ask .attach')).toHaveAttribute('data-attached', '');
  await ask(page, 'What is in this picture?');
  await expect(page.locator('#chat li.assistant').last()).toHaveText('A single pixel.');
  await expect(page.locator('.ask .attach')).not.toHaveAttribute('data-attached', '');
  const [request] = await modelRequests(page);
  expect(contentOf(request!.messages.at(-1))).toEqual([
    { type: 'text', text: 'What is in this picture?' },
    { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } },
  ]);
});

test('screenshot_note draws the note in the editor and the model sees it after the tool result', async ({ page }) => {
  await openDemo(page);
  await useFakeModel(page);
  await page.locator('#editor-form input[name="title"]').fill('Groceries');
  await page.locator('#editor-form textarea[name="body"]').fill('milk, bread, coffee');
  await script(page, [{ toolCalls: [{ id: 'shot-1', name: 'screenshot_note', arguments: {} }] }, { text: 'Your note lists milk, bread and coffee.' }]);
  await ask(page, 'Look at my note');
  await expect(page.locator('#chat li.assistant').last()).toHaveText('Your note lists milk, bread and coffee.');
  const [, second] = await modelRequests(page);
  const roles = second!.messages.map((message) => message.role);
  expect(roles.slice(-3)).toEqual(['assistant', 'tool', 'user']);
  expect(contentOf(second!.messages.at(-2))).toBe('{"ok":true,"output":{"title":"Groceries","width":480,"height":86}}');
  const shown = contentOf(second!.messages.at(-1)) as Array<{ type: string; text?: string; image_url?: { url: string } }>;
  expect(shown[0]!.text).toBe('[runtime] What tool call shot-1 (screenshot_note) returned beside its result:');
  expect(shown[1]!.image_url!.url).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
});
