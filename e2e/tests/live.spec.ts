import { expect, test } from '@playwright/test';
import { openLab } from './lab';

/**
 * While a run goes on, the Classroom shows it live: which run, how many
 * requests were delivered and executed so far (from the engine's polls),
 * each worker thread when the engine reports them, and live throughput.
 */
test('the classroom follows a live run, then opens its replay', async ({ page }) => {
  const { problems } = await openLab(page);
  await page.getByTestId('tab-run').click();
  await page.getByTestId('scenario-picker').selectOption('classroom-spin.json');
  await page.getByTestId('run-pace').fill('2000'); // 2 ms a request: time to watch
  await page.getByTestId('run').click();
  await page.getByTestId('tab-classroom').click();
  const progress = page.getByTestId('live-progress');
  await expect(progress).toContainText('delivered');
  const executed = async () =>
    Number(((await progress.textContent()) ?? '').match(/([\d,]+) of [\d,]+ executed/)?.[1]?.replace(/,/g, '') ?? NaN);
  const first = await executed();
  await expect.poll(executed, { timeout: 30_000 }).toBeGreaterThan(first);
  const lanes = page.getByTestId('live-lanes');
  if ((await lanes.count()) > 0) {
    // The engine reports its workers: one lane per thread, counts that add up.
    await expect(lanes.locator('li')).toHaveCount(2);
  } else {
    await expect(page.getByTestId('live-no-workers')).toBeVisible();
  }
  await page.getByTestId('cancel').click();
  await expect(page.getByTestId('timeline')).toBeVisible({ timeout: 60_000 });
  expect(problems).toEqual([]);
});
