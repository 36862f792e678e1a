// One browser sweep of the Sweep tab in Debian's Chromium, optionally with
// V8's sampling profiler in every isolate (--js-flags=--prof: one
// isolate-*-v8.log per isolate, written into OUT_DIR, the cwd Chromium
// inherits). For docs/benchmarks/wasm.md, "Early's workers in Chromium
// (ninth stop)". Run from the repository root:
//
//   node docs/benchmarks/data/wasm-2026-11-27b/sweep-prof.mjs OUT_DIR DIST EXECUTORS [PROF]
//
// DIST: a built web app (absolute path); EXECUTORS: comma-separated labels
// of the Sweep tab to tick (they run in the scenario's order, after
// sequential, the baseline); PROF: 1 to profile. SCENARIO (environment): the
// scenario file, default early-rw-read-heavy.json. 1 thread, 4,000 requests,
// warm-up sweep, 3 repetitions (the tab's defaults), as
// scripts/bench-wasm-vs-native.sh. Writes OUT_DIR/sweep.csv (the tab's export).
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright";

const [outDir, dist, executors, prof] = process.argv.slice(2);
const root = process.cwd();
mkdirSync(outDir, { recursive: true });
const out = path.resolve(outDir);
const port = 4190 + Math.floor(Math.random() * 9);
const server = spawn(
  "npx",
  ["vite", "preview", "--port", String(port), "--strictPort", "--outDir", dist],
  {
    cwd: path.join(root, "web"),
    stdio: "ignore",
    detached: true,
  },
);
const stop = () => {
  try {
    process.kill(-server.pid);
  } catch {}
};
try {
  for (let i = 0; ; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/`);
      if (r.ok) break;
    } catch {}
    if (i > 120) throw new Error("no preview server");
    await new Promise((r) => setTimeout(r, 500));
  }
  process.chdir(out);
  const args = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ];
  if (prof === "1") args.push("--js-flags=--prof");
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args,
  });
  const page = await browser.newPage({ acceptDownloads: true });
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.getByTestId("tab-sweep").click();
  await page
    .getByTestId("engine-info")
    .and(page.locator('[data-state="ready"]'))
    .waitFor({ timeout: 120_000 });
  await page
    .getByTestId("scenario-picker")
    .selectOption(process.env.SCENARIO ?? "early-rw-read-heavy.json");
  const pick = async (prefix, wanted) => {
    for (const box of await page.locator(`[data-testid^="${prefix}"]`).all()) {
      const id = (await box.getAttribute("data-testid")) ?? "";
      await box.setChecked(wanted.includes(id.slice(prefix.length)));
    }
  };
  await pick("sweep-thread-", ["1"]);
  await pick("sweep-executor-", executors.split(","));
  await page.getByTestId("sweep-requests").fill("4000");
  const t0 = Date.now();
  await page.getByTestId("sweep-run").click();
  await page
    .locator('[data-testid="sweep-phase"][data-phase="done"]')
    .waitFor({ timeout: 850_000 });
  console.log(`sweep took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const [csv] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("sweep-export-csv").click(),
  ]);
  await csv.saveAs(path.join(out, "sweep.csv"));
  await browser.close();
} finally {
  stop();
}
