/**
 * The Sweep tab as a user meets it: open the lab, open Sweep, pick two
 * executors of the default scenario and threads 1, 2 and 4, run a small
 * sweep, see one point per thread count per executor (oversubscribed ones
 * hollow), and export the numbers as CSV and the chart as SVG and PNG.
 *
 * Small streams (requests override) keep the sweep to a few seconds.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

const EXECUTORS = ['early', 'busy-wait'];
const THREADS = [1, 2, 4];
const REQUESTS = 2000;

async function openSweep(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  await page.goto('/');
  await page.getByTestId('tab-sweep').click();
  await expect(page.getByTestId('sweep-panel')).toBeVisible();
  // Opening the Sweep tab starts the engine (its limits set the thread choices).
  await expect(page.getByTestId('engine-info')).toHaveAttribute('data-state', 'ready');
  return problems;
}

/** Tick exactly `wanted` among the checkboxes whose test ids start with `prefix`. */
async function pickOnly(page: Page, prefix: string, wanted: string[]): Promise<void> {
  const boxes = page.locator(`[data-testid^="${prefix}"]`);
  for (const box of await boxes.all()) {
    const id = (await box.getAttribute('data-testid')) ?? '';
    await box.setChecked(wanted.includes(id.slice(prefix.length)));
  }
}

/** Parse the CSV (RFC 4180: quoted fields may hold commas, doubled quotes, line breaks). */
function csvRows(text: string): Record<string, string>[] {
  const table: string[][] = [[]];
  const re = /"((?:[^"]|"")*)"|([^,\n]*)/y;
  let i = 0;
  while (i < text.length) {
    re.lastIndex = i;
    const m = re.exec(text) as RegExpExecArray;
    table[table.length - 1].push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]);
    i = re.lastIndex;
    if (text[i] === ',') i++;
    else if (text[i] === '\n') {
      i++;
      if (i < text.length) table.push([]);
    }
  }
  const [names, ...lines] = table;
  return lines.map((l) => Object.fromEntries(l.map((v, k) => [names[k], v])));
}

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

/**
 * A real browser sweep for docs/benchmarks (not part of the test run):
 *
 *   PSMR_SWEEP_SCENARIO=early-busy-wait-conflicts.json PSMR_SWEEP_THREADS=1,2,4,8 \
 *   PSMR_SWEEP_OUT=/tmp/sweep.csv npx playwright test -c e2e sweep
 *
 * Optional: PSMR_SWEEP_WRITES (e.g. `0.01,0.3`), PSMR_SWEEP_REQUESTS. The
 * CSV is the Sweep tab's own export; the chart is saved next to it as PNG.
 */
test('browser sweep for the benchmark docs (PSMR_SWEEP_SCENARIO)', async ({ page }) => {
  const scenario = process.env.PSMR_SWEEP_SCENARIO;
  test.skip(!scenario, 'set PSMR_SWEEP_SCENARIO to run a sweep for the docs');
  test.setTimeout(900_000);
  const out = process.env.PSMR_SWEEP_OUT ?? '/tmp/psmr-browser-sweep.csv';
  await openSweep(page);
  await page.getByTestId('scenario-picker').selectOption(scenario as string);
  const threads = (process.env.PSMR_SWEEP_THREADS ?? '1,2,4,8').split(',');
  await pickOnly(page, 'sweep-thread-', threads);
  if (process.env.PSMR_SWEEP_WRITES) await page.getByTestId('sweep-writes').fill(process.env.PSMR_SWEEP_WRITES);
  if (process.env.PSMR_SWEEP_REQUESTS) await page.getByTestId('sweep-requests').fill(process.env.PSMR_SWEEP_REQUESTS);
  await page.getByTestId('sweep-run').click();
  await expect(page.getByTestId('sweep-phase')).toHaveAttribute('data-phase', 'done', { timeout: 850_000 });
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('sweep-export-csv').click()]);
  await csv.saveAs(out);
  const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('sweep-export-png').click()]);
  await png.saveAs(out.replace(/\.csv$/, '') + '.png');
});

/**
 * The clock the engine reads in the browser, for docs/benchmarks/wasm.md (not part of the test run):
 * the smallest step of `performance.now()` in this cross-origin isolated page, in a dedicated worker
 * (where the engine runs), and what one call costs.
 *
 *   PSMR_TIMER_OUT=/tmp/timer.json npx playwright test -c e2e sweep -g "timer"
 */
test('timer resolution for the benchmark docs (PSMR_TIMER_OUT)', async ({ page }) => {
  const out = process.env.PSMR_TIMER_OUT;
  test.skip(!out, 'set PSMR_TIMER_OUT to measure the clock');
  await page.goto('/');
  const probe = () => {
    const n = 200_000;
    let prev = performance.now();
    let steps = 0;
    let minStep = Infinity;
    const t0 = prev;
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      if (t > prev) {
        steps++;
        minStep = Math.min(minStep, t - prev);
      }
      prev = t;
    }
    return { calls: n, ns_per_call: ((prev - t0) * 1e6) / n, distinct_steps: steps, min_step_us: minStep * 1000 };
  };
  const src = `(${probe.toString()})()`;
  const page_ = (await page.evaluate(src)) as object;
  const worker = await page.evaluate(
    (code) =>
      new Promise((resolve) => {
        const blob = new Blob([`postMessage(${code})`], { type: 'text/javascript' });
        const w = new Worker(URL.createObjectURL(blob));
        w.onmessage = (e) => resolve(e.data);
      }),
    src,
  );
  const isolated = await page.evaluate(() => self.crossOriginIsolated);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(out as string, JSON.stringify({ crossOriginIsolated: isolated, page: page_, worker }, null, 2));
});
