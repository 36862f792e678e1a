// One Sweep-tab sweep in Debian's Chromium with the scenario's executors in
// a chosen order, for docs/benchmarks/wasm.md, "The first slot (tenth stop)".
// Run from the repository root:
//
//   node docs/benchmarks/data/wasm-2026-11-27d/slot.mjs OUT_CSV DIST ORDER [REQUESTS] [JSFLAGS]
//
// DIST: a built web app (absolute path). ORDER: the parallel executors after
// sequential, comma-separated, each `id` or `id=label` (a scheduler may run
// twice under another label), written into the Run tab's source box in place
// of the scenario's list (no app rebuild). REQUESTS default 4000. JSFLAGS:
// passed as Chromium's --js-flags (V8's), e.g. "--no-liftoff". SCENARIO
// (environment): default early-rw-read-heavy.json; ENTRIES (environment):
// another list size (entries per shard) in place of the scenario's. 1 thread, warm-up sweep,
// 3 repetitions (the tab's defaults). Writes OUT_CSV (the tab's export).
import { spawn } from "node:child_process";
import path from "node:path";
import { chromium } from "playwright";

const [outCsv, dist, order, requests = "4000", jsflags = ""] = process.argv.slice(2);
const root = process.cwd();
const port = 4300 + Math.floor(Math.random() * 200);
const server = spawn(
  "npx",
  ["vite", "preview", "--port", String(port), "--strictPort", "--outDir", dist],
  { cwd: path.join(root, "web"), stdio: "ignore", detached: true },
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
  if (jsflags) args.push(`--js-flags=${jsflags}`);
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args });
  const page = await browser.newPage({ acceptDownloads: true });
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.getByTestId("tab-run").click();
  await page
    .getByTestId("scenario-picker")
    .selectOption(process.env.SCENARIO ?? "early-rw-read-heavy.json");
  const box = page.getByTestId("scenario-text");
  const sc = JSON.parse(await box.inputValue());
  delete sc.expect;
  if (process.env.ENTRIES) sc.app.size = Number(process.env.ENTRIES);
  sc.schedulers = [
    { id: "sequential" },
    ...order.split(",").map((e) => {
      const [id, label] = e.split("=");
      return label ? { id, label } : { id };
    }),
  ];
  await box.fill(JSON.stringify(sc, null, 2));
  await page.getByTestId("tab-sweep").click();
  await page
    .getByTestId("engine-info")
    .and(page.locator('[data-state="ready"]'))
    .waitFor({ timeout: 120_000 });
  const pick = async (prefix, wanted) => {
    for (const b of await page.locator(`[data-testid^="${prefix}"]`).all()) {
      const id = (await b.getAttribute("data-testid")) ?? "";
      await b.setChecked(wanted === null || wanted.includes(id.slice(prefix.length)));
    }
  };
  await pick("sweep-thread-", ["1"]);
  await pick("sweep-executor-", null);
  await page.getByTestId("sweep-requests").fill(requests);
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
  await csv.saveAs(path.resolve(outCsv));
  await browser.close();
} finally {
  stop();
}
