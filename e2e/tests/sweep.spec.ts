/**
 * The Sweep tab as a user meets it: open the lab, open Sweep, pick two
 * executors of the default scenario and threads 1, 2 and 4, run a small
 * sweep, see one point per thread count per executor (oversubscribed ones
 * hollow), and export the numbers as CSV and the chart as SVG and PNG.
 *
 * Small streams (requests override) keep the sweep to a few seconds.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { csvRows } from '../../scripts/csv-rows.mjs';
import { openSweep, pickOnly } from '../support/sweep';

const EXECUTORS = ['early', 'busy-wait'];
const THREADS = [1, 2, 4];
const REQUESTS = 2000;

test('sweep two executors over 1, 2, 4 threads and export the numbers', async ({ page }) => {
  const problems = await openSweep(page);

  // The machine's cores are shown, as the browser reports them.
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  const machine = page.getByTestId('sweep-machine');
  await expect(machine).toHaveAttribute('data-cores', String(cores));
  await expect(machine).toContainText(`navigator.hardwareConcurrency = ${cores}`);

  // The default scenario offers its parallel executors; pick two of them.
  await expect(page.getByTestId('sweep-executor-ws-optimistic')).toBeVisible();
  await pickOnly(page, 'sweep-executor-', EXECUTORS);
  await pickOnly(
    page,
    'sweep-thread-',
    THREADS.map((t) => String(t)),
  );
  await page.getByTestId('sweep-requests').fill(String(REQUESTS));
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-phase')).toHaveAttribute('data-phase', 'done');

  // One point per thread count per executor, each with a throughput.
  const points = page.getByTestId('sweep-point');
  await expect(points).toHaveCount(EXECUTORS.length * THREADS.length);
  const seen = await points.evaluateAll((els) =>
    els.map((e) => ({
      executor: e.getAttribute('data-executor'),
      threads: Number(e.getAttribute('data-threads')),
      throughput: Number(e.getAttribute('data-throughput')),
      oversubscribed: e.getAttribute('data-oversubscribed') === 'true',
      correct: e.getAttribute('data-correct') === 'true',
      fill: e.getAttribute('fill'),
    })),
  );
  for (const executor of EXECUTORS) {
    const mine = seen.filter((p) => p.executor === executor);
    expect(mine.map((p) => p.threads)).toEqual(THREADS);
    for (const p of mine) {
      expect(p.throughput).toBeGreaterThan(0);
      expect(p.correct).toBe(true);
      // threads + 1 (the delivering thread) over the cores is oversubscribed, and drawn hollow.
      expect(p.oversubscribed).toBe(p.threads + 1 > cores);
      expect(p.fill === '#ffffff').toBe(p.oversubscribed);
    }
  }
  const anyOver = seen.some((p) => p.oversubscribed);
  await expect(page.getByTestId('sweep-legend-oversubscribed')).toHaveCount(anyOver ? 1 : 0);
  await expect(page.getByTestId('sweep-baseline')).toHaveCount(1);
  // The table has the baseline and every point.
  await expect(page.getByTestId('sweep-row')).toHaveCount(1 + EXECUTORS.length * THREADS.length);

  // Export the numbers: a CSV download with the baseline and one row per point.
  const [csvDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('sweep-export-csv').click(),
  ]);
  expect(csvDownload.suggestedFilename()).toBe('sweep-quickstart.csv');
  const rows = csvRows(readFileSync(await csvDownload.path(), 'utf8'));
  expect(rows.map((r) => `${r.executor}@${r.threads}`)).toEqual([
    'sequential@1',
    ...EXECUTORS.flatMap((e) => THREADS.map((t) => `${e}@${t}`)),
  ]);
  for (const r of rows) {
    expect(r.scenario).toBe('Quickstart: two shards, a few writes');
    expect(Number(r.throughput_ops_s)).toBeGreaterThan(0);
    expect(r.correct).toBe('true');
    expect(r.cores).toBe(String(cores));
  }
  const byPoint = new Map(seen.map((p) => [`${p.executor}@${p.threads}`, p]));
  for (const r of rows.slice(1)) {
    expect(r.oversubscribed).toBe(String(byPoint.get(`${r.executor}@${r.threads}`)?.oversubscribed));
  }

  // Export the chart: a standalone SVG with the same points, and a PNG.
  const [svgDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('sweep-export-svg').click(),
  ]);
  expect(svgDownload.suggestedFilename()).toBe('sweep-quickstart.svg');
  const svg = readFileSync(await svgDownload.path(), 'utf8');
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return {
      errors: doc.getElementsByTagName('parsererror').length,
      ns: doc.documentElement.namespaceURI,
      points: doc.querySelectorAll('[data-testid="sweep-point"]').length,
    };
  }, svg);
  expect(parsed).toEqual({
    errors: 0,
    ns: 'http://www.w3.org/2000/svg',
    points: EXECUTORS.length * THREADS.length,
  });
  const [pngDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('sweep-export-png').click(),
  ]);
  expect(pngDownload.suggestedFilename()).toBe('sweep-quickstart.png');
  const png = readFileSync(await pngDownload.path());
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(png.length).toBeGreaterThan(2000);

  expect(problems).toEqual([]);
});
