import { expect, test } from '@playwright/test';

test('the built app runs an agent in a runner worker, with a DOM tool and a dedicated worker tool', async ({ page }) => {
  await page.goto('/');
  await page.locator('#run-agent').click();
  await expect(page.locator('#answer')).toHaveAttribute('data-state', 'done');
  const answer = JSON.parse((await page.locator('#answer').textContent()) ?? '');
  const sample = (await page.locator('#sample').textContent()) ?? '';
  expect(answer.toolResults[0]).toBe(sample);
  expect(answer.toolResults[1]).toMatchObject({ words: 12, top: 'local', topCount: 4, realm: 'worker' });
  await expect(page.locator('#timeline li')).toHaveText([
    'read_section started (attempt 1)', 'read_section finished', 'word_stats started (attempt 1)', 'word_stats finished', 'run finished',
  ]);
});
