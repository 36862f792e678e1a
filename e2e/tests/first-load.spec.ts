import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';

/**
 * First load (issue 16, point 11): the first screen (Lessons) costs at most
 * 300 KB gzipped and fetches nothing of the engine (worker, wasm-bindgen
 * glue, wasm); the engine starts with the first lesson. A size test, not a
 * timing test: bytes are summed, nothing is timed.
 *
 * `vite preview` serves files uncompressed, so each response body is
 * gzipped here (level 9, as docs/benchmarks/frontend.md measures) and the
 * compressed sizes are summed: what a server that compresses would send.
 */

test.use({ trace: 'off' });

/** 300 KB, in bytes (KB = 1,000 bytes, as in docs/benchmarks/frontend.md). */
const FIRST_LOAD_GOAL_BYTES = 300_000;
/** Issue 30's goal for the first lesson in all (screen, engine, lesson), in bytes. */
const FIRST_LESSON_GOAL_BYTES = 700_000;
/** Issue 30's goal for the engine a lesson downloads (its package's wasm, gzip -9 as below), in bytes. */
const ENGINE_GOAL_BYTES = 350_000;
const WASM_URL = /\.wasm(\?|$)/;

/** Anything of the engine: its worker chunk, the wasm-bindgen glue, the module. */
const ENGINE_URL = /\.wasm(\?|$)|engine\.worker|psmr_wasm/;

interface Fetched {
  url: string;
  raw: number;
  gzip: number;
}

/** Record every request of the context, and every response with its raw and gzip -9 sizes. */
function recordTraffic(context: BrowserContext) {
  const requested: string[] = [];
  const fetched: Fetched[] = [];
  const reading: Promise<void>[] = [];
  context.on('request', (r) => requested.push(r.url()));
  context.on('response', (r) => {
    reading.push(
      r.body().then(
        (body) => {
          fetched.push({
            url: r.url(),
            raw: body.length,
            gzip: gzipSync(body, { level: 9 }).length,
          });
        },
        // A redirect or an aborted response has no body: it costs (about) nothing.
        () => undefined,
      ),
    );
  });
  return {
    requested,
    /** The responses so far, once their bodies are read. */
    async responses(): Promise<Fetched[]> {
      await Promise.all(reading);
      return [...fetched];
    },
  };
}

/** Open the app as a new visitor and wait until the first screen is up and the network is quiet. */
async function openFirstScreen(page: Page) {
  await page.goto('/');
  await expect(page.getByTestId('tab-lessons')).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('[data-lesson]').first()).toBeVisible();
  await expect(page.getByTestId('start-lesson-barriers')).toBeEnabled();
  // Whatever the page would fetch at start-up (lazy or not) is fetched by now.
  await page.waitForLoadState('networkidle');
}

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;

/** Gzipped and raw totals of `fetched`, and one line per response. */
function totals(fetched: Fetched[]) {
  const gzip = fetched.reduce((a, f) => a + f.gzip, 0);
  const raw = fetched.reduce((a, f) => a + f.raw, 0);
  const table = fetched
    .map((f) => `${kb(f.gzip).padStart(9)} gz ${kb(f.raw).padStart(9)} raw  ${new URL(f.url).pathname}`)
    .join('\n');
  return { gzip, raw, table };
}

test('the first screen loads under 300 KB gzipped without the engine; the first lesson starts it and runs', async ({
  page,
  context,
}, info) => {
  // Each test gets a fresh context: an empty cache, as a first visit.
  const traffic = recordTraffic(context);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await openFirstScreen(page);

  const first = await traffic.responses();
  const { gzip, raw, table } = totals(first);
  await info.attach('first-load.txt', {
    body: `${table}\n${kb(gzip)} gzipped, ${kb(raw)} raw\n`,
  });
  console.log(`first screen: ${first.length} responses, ${kb(gzip)} gzipped (${kb(raw)} raw)\n${table}`);
  expect(first.length, 'the first screen fetched its page and scripts').toBeGreaterThan(2);
  expect(
    traffic.requested.filter((u) => ENGINE_URL.test(u)),
    'nothing of the engine on the first screen',
  ).toEqual([]);
  expect(gzip, `first load ${kb(gzip)} gzipped`).toBeLessThanOrEqual(FIRST_LOAD_GOAL_BYTES);
  await expect(page.getByTestId('engine-info')).toHaveAttribute('data-state', 'idle');

  // The first lesson starts the engine and its run completes: checked against sequential execution.
  await page.getByTestId('start-lesson-barriers').click();
  await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-lesson', 'barriers', { timeout: 120_000 });
  await expect(page.getByTestId('engine-info')).toHaveAttribute('data-state', 'ready');
  await expect(page.getByTestId('timeline')).toBeVisible();
  // What the first lesson cost in all (docs/benchmarks/frontend.md): every URL once (the pool's
  // workers fetch the glue again, from the cache). About 542 KB in the build with the harness page
  // since the lesson loads its family's engine package (frontend.md, tenth pass, w3-pkgload; 668 KB
  // with the full engine before): held under the 700 KB goal.
  await page.waitForLoadState('networkidle');
  const lesson = [...new Map((await traffic.responses()).map((f) => [f.url, f])).values()];
  const all = totals(lesson.sort((a, b) => b.gzip - a.gzip));
  await info.attach('first-lesson.txt', {
    body: `${all.table}\n${kb(all.gzip)} gzipped, ${kb(all.raw)} raw\n`,
  });
  console.log(`first lesson: ${lesson.length} URLs, ${kb(all.gzip)} gzipped (${kb(all.raw)} raw)\n${all.table}`);
  expect(all.gzip, `first lesson ${kb(all.gzip)} gzipped`).toBeLessThan(FIRST_LESSON_GOAL_BYTES);
  await page.getByTestId('tab-run').click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-correct', 'true');
  // The recorder does see the engine's requests (made from its worker): the check above could fail.
  expect(
    traffic.requested.some((u) => WASM_URL.test(u)),
    'the lesson fetched the wasm',
  ).toBe(true);
  // The lesson's schedulers are all of the early family: the engine is that family's package
  // (issue 30), one wasm download, at most 350 KB gzipped; not the full engine first.
  await expect(page.getByTestId('engine-info')).toHaveAttribute('data-package', 'early');
  const wasm = lesson.filter((f) => WASM_URL.test(f.url));
  expect(
    wasm.map((f) => new URL(f.url).pathname),
    'one engine package downloaded',
  ).toHaveLength(1);
  expect(wasm[0].gzip, `the lesson's engine ${kb(wasm[0].gzip)} gzipped`).toBeLessThanOrEqual(ENGINE_GOAL_BYTES);
  expect(problems).toEqual([]);
});

/** The engine wasm files fetched so far (each URL once), and their gzipped sizes. */
async function wasmFetched(traffic: ReturnType<typeof recordTraffic>): Promise<Fetched[]> {
  return [...new Map((await traffic.responses()).map((f) => [f.url, f])).values()].filter((f) => WASM_URL.test(f.url));
}

test("a lesson of another family loads that family's engine package and runs correctly", async ({ page, context }) => {
  const traffic = recordTraffic(context);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await openFirstScreen(page);
  const engine = page.getByTestId('engine-info');

  await page.getByTestId('start-lesson-barriers').click();
  await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-lesson', 'barriers', { timeout: 120_000 });
  await expect(engine).toHaveAttribute('data-package', 'early');
  await page.waitForLoadState('networkidle');
  const [early] = await wasmFetched(traffic);

  // Back to the lessons: late scheduling's lesson needs the late family, which the early package lacks.
  await page.getByTestId('tab-lessons').click();
  await page.getByTestId('start-lesson-late').click();
  await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-lesson', 'late', { timeout: 120_000 });
  await expect(engine).toHaveAttribute('data-package', 'late');
  await page.getByTestId('tab-run').click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-correct', 'true', { timeout: 120_000 });
  await page.waitForLoadState('networkidle');
  const wasm = await wasmFetched(traffic);
  expect(wasm, 'the early package, then the late one').toHaveLength(2);
  const late = wasm.find((f) => f.url !== early.url) as Fetched;
  console.log(`early package ${kb(early.gzip)} gzipped, late package ${kb(late.gzip)} gzipped`);
  expect(late.gzip, `the late package ${kb(late.gzip)} gzipped`).toBeLessThanOrEqual(ENGINE_GOAL_BYTES);
  expect(problems).toEqual([]);
});

test('a scenario of two families in the Author tab loads the full engine, which then stays', async ({
  page,
  context,
}) => {
  const traffic = recordTraffic(context);
  await openFirstScreen(page);
  const engine = page.getByTestId('engine-info');
  await page.getByTestId('start-lesson-late').click();
  await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-lesson', 'late', { timeout: 120_000 });
  await expect(engine).toHaveAttribute('data-package', 'late');

  // The author pastes a scenario that compares late with early scheduling.
  await page.getByTestId('tab-author').click();
  const editor = page.getByTestId('scenario-editor');
  await expect(editor).toBeVisible();
  // A shipped comparison (sequential, late, early), smaller and without traces.
  const doc = JSON.parse(
    readFileSync(new URL('../../scenarios/late-vs-early-mixed-light.json', import.meta.url), 'utf8'),
  ) as { workload: { requests: number }; run?: object };
  doc.workload.requests = 300;
  doc.run = { ...doc.run, trace: false };

  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(JSON.stringify(doc, null, 2));
  // The engine's own validation needs both families: the full engine replaces the late package.
  await expect(engine).toHaveAttribute('data-package', 'full');
  await expect(page.getByTestId('problems')).toHaveAttribute('data-count', '0');
  await page.getByTestId('run-this').click();
  await expect(page.getByTestId('phase')).toHaveAttribute('data-phase', 'done', { timeout: 120_000 });
  await page.getByTestId('tab-run').click();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-correct', 'true');
  await expect(page.getByTestId('result-row')).toHaveCount(3);

  // Back to a one-family lesson: the full engine runs it; no other package is downloaded.
  await page.getByTestId('tab-lessons').click();
  await page.getByTestId('start-lesson-barriers').click();
  await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-lesson', 'barriers', { timeout: 120_000 });
  await expect(engine).toHaveAttribute('data-package', 'full');
  await page.waitForLoadState('networkidle');
  expect(await wasmFetched(traffic), 'the late package, then the full engine only').toHaveLength(2);
});

test('while the engine loads the lesson says so, and a failed download is a clear message with a retry', async ({
  page,
  context,
}) => {
  // Hold the wasm download until the "starting" state has been seen, then fail it.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await context.route(WASM_URL, async (route) => {
    await held;
    await route.abort('failed');
  });
  await openFirstScreen(page);
  await page.getByTestId('start-lesson-barriers').click();
  await expect(page.getByTestId('live-starting')).toContainText('starting the engine…');
  await expect(page.getByTestId('engine-info')).toHaveAttribute('data-state', 'starting');
  release();
  await expect(page.getByTestId('classroom-run-failed')).toContainText('the engine could not start');
  await expect(page.getByTestId('engine-info')).toHaveAttribute('data-state', 'failed');

  // The network is back: "try again" starts a fresh engine, and the lesson runs.
  await context.unroute(WASM_URL);
  await page.getByTestId('engine-retry').click();
  await expect(page.getByTestId('engine-info')).toHaveAttribute('data-state', 'ready');
  await page.getByTestId('tab-lessons').click();
  await page.getByTestId('start-lesson-barriers').click();
  await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-lesson', 'barriers', { timeout: 120_000 });
});
