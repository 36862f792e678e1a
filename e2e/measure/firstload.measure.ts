/**
 * The first lesson's transfer, per lesson, for docs/benchmarks/frontend.md
 * (issue 30; registered only when asked for, like the other measurements):
 *
 *   PSMR_FIRSTLOAD_OUT=/tmp/first-lesson.tsv npx playwright test -c e2e firstload
 *
 * For each lesson (PSMR_FIRSTLOAD_LESSONS, comma-separated ids; default
 * one per family), a new visitor (fresh context, empty cache) opens the
 * first screen, starts the lesson, waits until the network is quiet, and
 * every response body (each URL once) is gzipped at level 9 with node's
 * zlib, as first-load.spec.ts counts. One TSV row per lesson: total gz and
 * raw, the engine wasm's gz and raw, the loaded package. Sizes, not times.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';

const out = process.env.PSMR_FIRSTLOAD_OUT;
if (out) {
  const lessons = (process.env.PSMR_FIRSTLOAD_LESSONS ?? 'barriers,stealing,late,epaxos,repartitioning,coloring').split(
    ',',
  );
  test.describe.configure({ mode: 'serial' });
  test.beforeAll(() => {
    writeFileSync(out, 'lesson\ttotal_gz\ttotal_raw\twasm_gz\twasm_raw\tpackage\turls\n');
  });
  for (const lesson of lessons) {
    test(`first lesson transfer: ${lesson}`, async ({ browser }) => {
      test.setTimeout(300_000);
      const context = await browser.newContext();
      const page = await context.newPage();
      const bodies = new Map<string, Promise<Buffer | null>>();
      context.on('response', (r) => {
        if (!bodies.has(r.url()))
          bodies.set(
            r.url(),
            r.body().catch(() => null),
          );
      });
      await page.goto('/');
      await expect(page.getByTestId(`start-lesson-${lesson}`)).toBeEnabled();
      await page.waitForLoadState('networkidle');
      await page.getByTestId(`start-lesson-${lesson}`).click();
      await expect(page.getByTestId('lesson-bar')).toHaveAttribute('data-lesson', lesson, { timeout: 240_000 });
      const engine = page.getByTestId('engine-info');
      await expect(engine).toHaveAttribute('data-state', 'ready');
      await page.waitForLoadState('networkidle');
      let totalGz = 0;
      let totalRaw = 0;
      let wasmGz = 0;
      let wasmRaw = 0;
      for (const [url, body] of bodies) {
        const b = await body;
        if (!b) continue;
        const gz = gzipSync(b, { level: 9 }).length;
        totalGz += gz;
        totalRaw += b.length;
        if (/\.wasm(\?|$)/.test(url)) {
          wasmGz += gz;
          wasmRaw += b.length;
        }
      }
      const pkg = (await engine.getAttribute('data-package')) ?? '(not reported)';
      appendFileSync(out, `${lesson}\t${totalGz}\t${totalRaw}\t${wasmGz}\t${wasmRaw}\t${pkg}\t${bodies.size}\n`);
      await context.close();
    });
  }
}
