import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { replayOnly, resetRunCount, runScenario } from './classroom';
import { openLab } from './lab';

/**
 * Classroom charts that agree with the views: the queue-length chart's CSV
 * gives, at the moment the chart was clicked, exactly the queue lengths the
 * synchronization view shows there; labelled runs get their per-thread
 * charts; every chart's legend and title are inside its exported file.
 */

test.use({ trace: 'off' });
test.beforeEach(() => resetRunCount());

test('queue-length CSV equals the synchronization view at the same moment', async ({ page }) => {
  const { problems } = await openLab(page);
  await runScenario(page, 'classroom-spin.json');
  await replayOnly(page, 'early');
  await page.getByTestId('view-charts').click();
  const fig = page.getByTestId('chart-queues');
  const pick = fig.getByTestId('chart-pick');
  const box = (await pick.boundingBox())!;
  // Click a third of the way in: the replay moves to the chart's sample there.
  await pick.click({ position: { x: box.width / 3, y: box.height / 2 } });
  await expect(fig).not.toHaveAttribute('data-replay-t-ms', '0');
  const tMs = await fig.getAttribute('data-replay-t-ms');
  expect(Number(tMs)).toBeGreaterThan(0);

  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-queues-csv').click()]);
  const rows = (await readFile((await csv.path())!, 'utf8')).trim().split('\n').slice(1);
  const atT = rows.map((r) => r.split(',')).filter(([, t]) => t === tMs);
  expect(atT.length, `CSV rows at t_ms = ${tMs}`).toBeGreaterThan(0);
  const fromChart = Object.fromEntries(atT.map(([series, , len]) => [series, Number(len)]));

  await page.getByTestId('view-sync').click();
  // The view is its own chunk, fetched the first time it is shown: wait for it before reading it.
  await expect(page.getByTestId('thread-list')).toBeVisible();
  const fromView: Record<string, number> = {};
  for (const li of await page.getByTestId('thread-list').locator('li').all()) {
    fromView[`T${await li.getAttribute('data-thread')}`] = Number(await li.getAttribute('data-queue'));
  }
  expect(fromChart).toEqual(fromView);
  expect(problems).toEqual([]);
});

test('labelled runs get their own per-thread charts, titled, with the legend off the data', async ({ page }) => {
  const { problems } = await openLab(page);
  await runScenario(page, 'classroom-mapping.json');
  // Both labelled early runs, compared.
  const boxes = page.getByTestId('run-choice').locator('input[type=checkbox]');
  for (let i = 0; i < (await boxes.count()); i++) {
    const b = boxes.nth(i);
    if (!(await b.isChecked())) await b.click();
  }
  await page.getByTestId('view-charts').click();
  const threads = page.getByTestId('chart-threads');
  await expect(threads).toHaveCount(2);
  for (const f of await threads.all()) {
    await expect(f.locator('svg rect').first()).toBeVisible();
    await expect(f).not.toContainText('No per-thread times');
  }
  await expect(threads.first().locator('svg')).toContainText('early-naive');
  await expect(threads.nth(1).locator('svg')).toContainText('early-optimized');
  // The legend sits below the plot: no legend item overlaps a bar.
  const overlaps = await threads.first().evaluate((fig) => {
    const bars = [...fig.querySelectorAll('svg g rect')].map((r) => r.getBoundingClientRect());
    const keys = [...fig.querySelectorAll('svg .legend g')].map((k) => k.getBoundingClientRect());
    return keys.some((k) => bars.some((b) => k.left < b.right && b.left < k.right && k.top < b.bottom && b.top < k.bottom));
  });
  expect(overlaps).toBe(false);
  // The exported SVG carries its title and legend.
  const [svg] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-latency-svg').click()]);
  const text = await readFile((await svg.path())!, 'utf8');
  expect(text).toContain('Latency percentiles');
  expect(text).toContain('early-naive');
  expect(problems).toEqual([]);
});
