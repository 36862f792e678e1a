/**
 * Measurements for docs/benchmarks, run through Playwright in the built app
 * but not tests: each is registered only when its variable asks for it, and
 * the `measure` project that loads this file exists only then
 * (e2e/playwright.config.ts), so a normal e2e run neither runs nor counts
 * them. scripts/bench-wasm-vs-native.sh drives both.
 */
import { expect, test, type Page } from '@playwright/test';
import { openSweep, pickOnly } from '../support/sweep';

/**
 * A real browser sweep for docs/benchmarks (registered only when asked for):
 *
 *   PSMR_SWEEP_SCENARIO=early-busy-wait-conflicts.json PSMR_SWEEP_THREADS=1,2,4,8 \
 *   PSMR_SWEEP_OUT=/tmp/sweep.csv npx playwright test -c e2e sweep
 *
 * Optional: PSMR_SWEEP_WRITES (e.g. `0.01,0.3`), PSMR_SWEEP_REQUESTS, and
 * PSMR_SWEEP_SOURCE, a scenario file swept in place of the picked one's
 * text (see `replaceSource`). The CSV is the Sweep tab's own export; the
 * chart is saved next to it as PNG.
 */
const scenario = process.env.PSMR_SWEEP_SCENARIO;

/**
 * Write the scenario file at `file` into the Run tab's source box, which is
 * what the Sweep tab sweeps (the picked file's name stays). The tab runs a
 * repetition's executors in the file's order, and in Chromium the first
 * parallel run after sequential is slower than the next
 * (docs/benchmarks/wasm.md, "The first slot (tenth stop)"), so
 * scripts/bench-wasm-vs-native.sh sweeps a copy with a warm-up run in that
 * slot, the same file it runs natively; no rebuild of the app is needed.
 */
async function replaceSource(page: Page, file: string) {
  const { readFileSync } = await import('node:fs');
  await page.getByTestId('tab-run').click();
  await page.getByTestId('scenario-text').fill(readFileSync(file, 'utf8'));
  await page.getByTestId('tab-sweep').click();
  await expect(page.getByTestId('sweep-panel')).toBeVisible();
}
if (scenario) {
  test('browser sweep for the benchmark docs (PSMR_SWEEP_SCENARIO)', async ({ page }) => {
    test.setTimeout(900_000);
    const out = process.env.PSMR_SWEEP_OUT ?? '/tmp/psmr-browser-sweep.csv';
    await openSweep(page);
    await page.getByTestId('scenario-picker').selectOption(scenario);
    if (process.env.PSMR_SWEEP_SOURCE) await replaceSource(page, process.env.PSMR_SWEEP_SOURCE);
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
}

/**
 * The clock the engine reads in the browser, for docs/benchmarks/wasm.md (not part of the test run):
 * the smallest step of `performance.now()` in this cross-origin isolated page, in a dedicated worker
 * (where the engine runs), and what one call costs (registered only when asked for).
 *
 *   PSMR_TIMER_OUT=/tmp/timer.json npx playwright test -c e2e sweep -g "timer"
 */
const timerOut = process.env.PSMR_TIMER_OUT;
if (timerOut) {
  test('timer resolution for the benchmark docs (PSMR_TIMER_OUT)', async ({ page }) => {
    const out = timerOut;
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
      return {
        calls: n,
        ns_per_call: ((prev - t0) * 1e6) / n,
        distinct_steps: steps,
        min_step_us: minStep * 1000,
      };
    };
    const src = `(${probe.toString()})()`;
    const page_ = (await page.evaluate(src)) as object;
    const worker = await page.evaluate(
      (code) =>
        new Promise((resolve) => {
          const blob = new Blob([`postMessage(${code})`], {
            type: 'text/javascript',
          });
          const w = new Worker(URL.createObjectURL(blob));
          w.onmessage = (e) => resolve(e.data);
        }),
      src,
    );
    const isolated = await page.evaluate(() => self.crossOriginIsolated);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(out, JSON.stringify({ crossOriginIsolated: isolated, page: page_, worker }, null, 2));
  });
}
