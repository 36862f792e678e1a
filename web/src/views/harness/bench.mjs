// Frame-rate and long-task benchmark of the classroom views (docs/benchmarks/frontend.md).
// Usage: node web/src/views/harness/bench.mjs http://127.0.0.1:4173
//   (a `vite preview` of a build with the harness page: PSMR_HARNESS=1 npx vite build)
// Opens the Classroom tab on a synthetic 16-thread trace, moves to a point with
// many queued chips, plays for a few seconds (run-time pace, or step pace
// with the chips' transitions) and reports frame intervals, long tasks and
// the number of chips drawn.
import { chromium } from 'playwright-core';

const base = process.argv[2] ?? 'http://127.0.0.1:4173';
const seconds = Number(process.argv[3] ?? 5);
const browser = await chromium.launch({
  executablePath: process.env.PSMR_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
await page.addInitScript(() => {
  window.__longTasks = [];
  new PerformanceObserver((l) => {
    for (const e of l.getEntries()) window.__longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
});

async function scenario(name, query, pick, pace = 'time') {
  const t0 = Date.now();
  await page.goto(`${base}/src/views/harness/index.html?${query}`);
  await page.waitForFunction(
    () => document.querySelector('[data-testid=synthetic-status]')?.textContent?.includes('ready'),
    null,
    {
      timeout: 300_000,
    },
  );
  const loadMs = Date.now() - t0;
  // Find the position with the most queued chips among a few probes.
  const n = Number(await page.getByTestId('position').getAttribute('data-events'));
  let best = { p: 0, chips: -1 };
  for (let k = 1; k < 20; k++) {
    const p = Math.floor((n * k) / 20);
    await page.getByTestId('scrubber').fill(String(p));
    const chips = Number(await page.locator('canvas[data-queued]').first().getAttribute('data-queued'));
    if (chips > best.chips) best = { p, chips };
  }
  if (pick) best = pick(best);
  await page.getByTestId('scrubber').fill(String(best.p));
  if (pace === 'time') {
    // Run-time pace, slow enough that the queues stay full while we measure.
    await page.getByTestId('pace').selectOption('time');
    await page.getByTestId('slowdown').fill('6');
  } else {
    // Step pace: every step animates its chips (dispatch, take, steal) for half the step.
    await page.getByTestId('pace').selectOption(pace);
  }
  const frames = await page.evaluate(async (ms) => {
    window.__longTasks.length = 0;
    document.querySelector('[data-testid=play]').click();
    const ts = [];
    await new Promise((done) => {
      const start = performance.now();
      const f = (t) => {
        ts.push(t);
        if (t - start < ms) requestAnimationFrame(f);
        else done();
      };
      requestAnimationFrame(f);
    });
    document.querySelector('[data-testid=play]').click();
    const d = ts
      .slice(1)
      .map((t, i) => t - ts[i])
      .sort((a, b) => a - b);
    return {
      frames: ts.length,
      fps: (ts.length - 1) / ((ts[ts.length - 1] - ts[0]) / 1000),
      p50: d[Math.floor(d.length / 2)],
      p95: d[Math.floor(d.length * 0.95)],
      max: d[d.length - 1],
      longTasks: window.__longTasks.slice(),
    };
  }, seconds * 1000);
  const chipsEnd = Number(await page.locator('canvas[data-queued]').first().getAttribute('data-queued'));
  console.log(
    JSON.stringify({
      name,
      loadMs,
      events: n,
      chipsAtStart: best.chips,
      chipsAtEnd: chipsEnd,
      ...frames,
      fps: +frames.fps.toFixed(1),
    }),
  );
}

await scenario(
  '16 lanes, ~1000 chips',
  'synthetic=early&threads=16&shards=4&writes=0.3&global=0.02&exec=12&bound=70&requests=20000',
);
await scenario('1M events, 16 lanes', 'synthetic=ws&threads=16&events=1000000&skew=0.6&bound=64');
await scenario(
  '16 lanes, ~1000 chips, animated steps (250 ms a step)',
  'synthetic=early&threads=16&shards=4&writes=0.3&global=0.02&exec=12&bound=70&requests=20000',
  undefined,
  '250',
);
await browser.close();
