import { expect, test } from '@playwright/test';

test('the page runs a tool call and shows its result', async ({ page }) => {
  await page.goto('/');
  await page.locator('#args').fill('{"a": 2, "b": 40}');
  await page.locator('#run').click();
  await expect(page.locator('#result')).toHaveAttribute('data-state', 'ok');
  const result = JSON.parse((await page.locator('#result').textContent()) ?? '');
  expect(result).toMatchObject({ name: 'add', ok: true, output: 42, attempts: 1 });
});

test('the page shows invalid arguments as an error the model could act on', async ({ page }) => {
  await page.goto('/');
  await page.locator('#args').fill('{"a": 2, "b": "forty"}');
  await page.locator('#run').click();
  await expect(page.locator('#result')).toHaveAttribute('data-state', 'invalid_arguments');
  await expect(page.locator('#result')).toContainText('/b must be number');
});

test('the page shows a timed-out idempotent tool retried, then reported as timeout', async ({ page }) => {
  await page.goto('/');
  await page.locator('#run-slow').click();
  await expect(page.locator('#result')).toHaveAttribute('data-state', 'timeout');
  const text = (await page.locator('#result').textContent()) ?? '';
  expect(text.match(/^timeout; retry \d/gm)).toHaveLength(2);
  expect(text).toContain('"attempts": 3');
});
